"""`make s3-bench`: `frost cache --batch` over the same 200-image catalog from a local folder and from
an S3 server on loopback (moto, signatures checked: Tests/References/s3_server.py), then a no-op rerun
over the bucket through a counting proxy (Tests/References/s3_proxy.py).

Frost's own CPU (user + system of the frost process alone: the server is another process) and peak
resident memory come from wait4's rusage; each run is repeated ROUNDS times, local and S3 alternating,
and the medians are compared: the S3 run's CPU should be within 1.15x of the local run's and its peak
memory within the local run's + 64 MiB; the rerun should make at most one request per cache and read
no source byte. With LARGE_SIDE, one LARGE_SIDE x LARGE_SIDE JPEG is also cached alone, from a
folder into a folder and from the bucket into the bucket (downloaded into TMPDIR and streamed from
there, its levels staged and uploaded): the two peaks of resident memory, which should be within
64 MiB of each other (docs/storage.md).
Usage: python Benchmarks/s3_bench.py FROST_BINARY [ROUNDS] [LARGE_SIDE]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import boto3

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
frost = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
large_side = int(sys.argv[3]) if len(sys.argv) > 3 else 0
work = os.path.join(ROOT, "out/s3-bench")
catalog = os.path.join(work, "catalog")


def make_catalog():
    """200 JPEGs and PNGs of 480 to 1440 pixels, cut from the sample photos by frost itself."""
    if os.path.isdir(catalog) and len(os.listdir(catalog)) == 200:
        return
    shutil.rmtree(catalog, ignore_errors=True)
    os.makedirs(catalog)
    sources = [os.path.join(ROOT, "Tests/Corpus/photos", n) for n in sorted(os.listdir(os.path.join(ROOT, "Tests/Corpus/photos")))
               if n.endswith((".jpg", ".png"))]
    for i in range(200):
        source = sources[i % len(sources)]
        width = 480 + (i * 53) % 961
        name = f"{i:03d}.{'png' if i % 4 == 3 else 'jpg'}"
        subprocess.run([frost, "resize", source, os.path.join(catalog, name), "--width", str(width)], check=True)


def timed(arguments, env):
    """Runs frost; its user + system seconds and peak RSS (KiB) from wait4, and its wall time."""
    start = time.monotonic()
    process = subprocess.Popen([frost] + arguments, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    err = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"frost {' '.join(arguments)} failed: {err[-400:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, time.monotonic() - start, err


make_catalog()
server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/References/s3_server.py")],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
keys = json.loads(server.stdout.readline())
env = dict(os.environ, AWS_ENDPOINT_URL=keys["endpoint"], AWS_ACCESS_KEY_ID=keys["access_key_id"], AWS_REGION="us-east-1",
           AWS_SECRET_ACCESS_KEY=keys["secret_access_key"], AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")
s3 = boto3.client("s3", endpoint_url=keys["endpoint"], region_name="us-east-1",
                  aws_access_key_id=keys["access_key_id"], aws_secret_access_key=keys["secret_access_key"])
try:
    s3.create_bucket(Bucket="bench")
    for name in sorted(os.listdir(catalog)):
        s3.upload_file(os.path.join(catalog, name), "bench", "catalog/" + name)
    local, remote = [], []
    for r in range(rounds):
        out = tempfile.mkdtemp(dir=work)
        local.append(timed(["cache", "--batch", catalog, "-o", out, "--jobs", "2"], env))
        shutil.rmtree(out)
        prefix = f"caches-{r}/"
        remote.append(timed(["cache", "--batch", "s3://bench/catalog/", "-o", f"s3://bench/{prefix}", "--jobs", "2"], env))
        print(f"round {r + 1}: local cpu {local[-1][0]:.2f} s rss {local[-1][1] / 1024:.0f} MiB wall {local[-1][2]:.1f} s | "
              f"s3 cpu {remote[-1][0]:.2f} s rss {remote[-1][1] / 1024:.0f} MiB wall {remote[-1][2]:.1f} s", flush=True)
    cpu_local, cpu_s3 = statistics.median(x[0] for x in local), statistics.median(x[0] for x in remote)
    rss_local, rss_s3 = statistics.median(x[1] for x in local) / 1024, statistics.median(x[1] for x in remote) / 1024
    print(f"median CPU: local {cpu_local:.2f} s, s3 {cpu_s3:.2f} s: {cpu_s3 / cpu_local:.3f}x (goal <= 1.15x)")
    print(f"median peak RSS: local {rss_local:.0f} MiB, s3 {rss_s3:.0f} MiB: +{rss_s3 - rss_local:.0f} MiB (goal <= +64 MiB)")

    log = os.path.join(work, "proxy.jsonl")
    open(log, "w").close()
    proxy = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/References/s3_proxy.py"), "--upstream", keys["endpoint"], "--log", log],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    endpoint = json.loads(proxy.stdout.readline())["endpoint"]
    cpu, rss, wall, err = timed(["cache", "--batch", "s3://bench/catalog/", "-o", "s3://bench/caches-0/", "--jobs", "2"],
                                dict(env, AWS_ENDPOINT_URL=endpoint))
    proxy.stdin.close()
    proxy.wait()
    requests = [json.loads(line) for line in open(log)]
    manifests = sum(1 for q in requests if q["path"].endswith("/manifest.json"))
    sources = [q for q in requests if "/catalog/" in q["path"] and "list-type" not in q["query"]]
    print(f"no-op rerun: {err.strip().splitlines()[-1]}; {len(requests)} requests for 200 caches "
          f"({manifests} manifest GETs, {len(requests) - manifests} others), {sum(q['sent'] for q in sources)} source bytes, "
          f"{wall:.2f} s, cpu {cpu:.2f} s")

    if large_side:
        big = os.path.join(work, f"big-{large_side}.jpg")
        if not os.path.exists(big):
            subprocess.run([frost, "resize", os.path.join(ROOT, "SampleImages/UNIS_EV0.jpg"), "-o", big, "--width", str(large_side),
                            "--height", str(large_side), "--fit", "fill", "--quality", "85"], check=True, stdout=subprocess.DEVNULL)
        s3.upload_file(big, "bench", "large/big.jpg")
        out = tempfile.mkdtemp(dir=work)
        cpu_l, rss_l, wall_l, _ = timed(["cache", big, "-o", os.path.join(out, "big.frost")], env)
        shutil.rmtree(out)
        cpu_r, rss_r, wall_r, _ = timed(["cache", "s3://bench/large/big.jpg", "-o", "s3://bench/large/big.frost"], env)
        print(f"{large_side}x{large_side} JPEG: folder to folder peak {rss_l / 1048576:.2f} GiB, cpu {cpu_l:.1f} s, wall {wall_l:.1f} s; "
              f"bucket to bucket peak {rss_r / 1048576:.2f} GiB (+{(rss_r - rss_l) / 1024:.0f} MiB), cpu {cpu_r:.1f} s, wall {wall_r:.1f} s")
finally:
    server.stdin.close()
    server.wait()
