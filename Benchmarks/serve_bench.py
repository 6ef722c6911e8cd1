"""make serve-bench: frost serve against thumbor 7.8 on loopback, as CPU time per response.

Requests per second on a 2-core machine that also runs the load generator say more about the
machine than about the servers, so the figure compared is each server's own CPU time per response
(user + system of all its processes, read from /proc before and after the run), beside requests per
second and latency. Both servers are started here on free ports in their strongest configuration:
frost-serve (release, `make serve-build`) with a worker per core; thumbor with a process per core
(`--processes`), Pillow, no storage of sources. The load is wrk (one thread, -c8) per case:

  distinct  one 2048x1536 JPEG fitted to 500x500, WebP quality 80, a cache buster in every URL:
            nothing cached anywhere (frost's decoded-source cache off)
  srcset    a dozen 2048-wide JPEGs x widths 320, 640, 960, 1280 x WebP and JPEG, shuffled, every
            URL once (a cache buster makes each response new): responsive images, where most
            requests that miss a result cache are another variant of a source decoded a moment ago
  repeated  one URL: frost with its result cache (--cache), thumbor with its file result storage

Printed per case and server: requests, requests per second, p50 and p99 latency, CPU ms per
response; and frost's CPU advantage (thumbor's CPU per response / frost's). Exits 1 on a non-2xx
answer. Usage:
  serve_bench.py FROST_SERVE THUMBOR FROST [--seconds S] [--concurrency C] [--cases a,b]
FROST (the command line) makes the srcset sources.
"""
import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = os.path.join(ROOT, "SampleImages", "UNIS_EV0.jpg")   # a 2048x1536 JPEG
TICKS = os.sysconf("SC_CLK_TCK")
WIDTHS = (320, 640, 960, 1280)
SOURCES = 12


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"serve_bench: {url} never answered")


def cpu_seconds(session):
    """User + system seconds of every live process in `session` (the server and its children)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the name: state ppid pgrp session ... utime (14th field overall) stime (15th).
        if int(fields[3]) == session:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def start(args, ready):
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    wait_ready(ready)
    return proc


def start_frost(binary, images, cache, source_cache):
    port = free_port()
    args = [binary, "--root", images, "--bind", f"127.0.0.1:{port}", "--allow-unsigned", "--queue", "1024",
            "--source-cache-size", str(source_cache)]
    if cache:
        args += ["--cache", cache]
    return start(args, f"http://127.0.0.1:{port}/health"), port


def start_thumbor(binary, images, work, cache):
    port = free_port()
    conf = os.path.join(work, f"thumbor-{port}.conf")
    with open(conf, "w") as f:
        f.write(f"""LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '{images}'
STORAGE = 'thumbor.storages.no_storage'
ALLOW_UNSAFE_URL = True
QUALITY = 80
WEBP_QUALITY = 80
MAX_AGE = 86400
""")
        if cache:
            f.write(f"RESULT_STORAGE = 'thumbor.result_storages.file_storage'\n"
                    f"RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '{cache}'\nRESULT_STORAGE_STORES_UNSAFE = True\n")
    args = [binary, "--port", str(port), "--ip", "127.0.0.1", "--conf", conf, "--processes", str(os.cpu_count())]
    return start(args, f"http://127.0.0.1:{port}/healthcheck"), port


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except Exception:
        proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def wrk(proc, port, paths, seconds, concurrency, work):
    """Requests, requests per second, p50 and p99 latency (ms) and CPU ms per response of wrk on
    `paths` taken in turn ({n} a counter: every URL once), the server being `proc`'s session."""
    listing = os.path.join(work, f"paths-{port}.txt")
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    script = os.path.join(work, "paths.lua")
    with open(script, "w") as f:
        # One Lua state (wrk -t1): a counter walks the list, and `{n}` takes the round, so that a
        # URL never repeats when the list is walked again.
        f.write("""local paths = {}
for line in io.lines(os.getenv("FROST_BENCH_PATHS")) do paths[#paths + 1] = line end
local counter = 0
request = function()
  local path = paths[counter % #paths + 1]
  local round = math.floor(counter / #paths)
  counter = counter + 1
  return wrk.format("GET", (string.gsub(path, "{n}", tostring(round))))
end
""")
    env = dict(os.environ, FROST_BENCH_PATHS=listing)
    before = cpu_seconds(proc.pid)
    out = subprocess.run(["wrk", "-t1", f"-c{concurrency}", f"-d{seconds}s", "--latency", "--timeout", "30s", "-s", script,
                          f"http://127.0.0.1:{port}/"], capture_output=True, text=True, env=env).stdout
    cpu = cpu_seconds(proc.pid) - before
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"serve_bench: {non2xx.group(1)} errors on port {port}:\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(p):
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    return requests, rps, percentile(50), percentile(99), cpu * 1000 / max(1, requests)


def srcset_sources(frost, images):
    """A dozen 2048-wide JPEGs: the sample photo in twelve brightness and crop variants."""
    names = []
    for i in range(SOURCES):
        name = f"photo-{i:02d}.jpg"
        subprocess.run([frost, "run", IMAGE, os.path.join(images, name),
                        f"adjust:brightness={(i - SOURCES / 2) / 40}", "--quality", "90"], check=True, capture_output=True)
        names.append(name)
    return names


def cases(names):
    """Per case: frost's paths, thumbor's paths, frost's server setup (result cache, source cache bytes)."""
    srcset = [(name, w, ext) for name in names for w in WIDTHS for ext in ("webp", "jpg")]
    random.Random(7).shuffle(srcset)
    thumbor_format = {"webp": "filters:format(webp):quality(80)", "jpg": "filters:quality(80)"}
    return {
        "distinct": (["/_/rs:fit:500:500/q:80/cb:{n}/plain/local:///photo.jpg@webp"],
                     ["/unsafe/fit-in/500x500/filters:format(webp):quality(80)/photo.jpg?n={n}"], (False, 0)),
        "srcset": ([f"/_/rs:fit:{w}:0/q:80/cb:{{n}}/plain/local:///{name}@{ext}" for name, w, ext in srcset],
                   [f"/unsafe/fit-in/{w}x0/{thumbor_format[ext]}/{name}?n={{n}}" for name, w, ext in srcset], (False, 512 << 20)),
        "repeated": (["/_/rs:fit:500:500/q:80/plain/local:///photo.jpg@webp"],
                     ["/unsafe/fit-in/500x500/filters:format(webp):quality(80)/photo.jpg"], (True, 512 << 20)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("frost_serve")
    parser.add_argument("thumbor")
    parser.add_argument("frost")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--cases", default="distinct,srcset,repeated")
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="frost-serve-bench-")
    images = os.path.join(work, "images")
    os.makedirs(images)
    shutil.copy(IMAGE, os.path.join(images, "photo.jpg"))
    table = cases(srcset_sources(a.frost, images))
    print(f"frost serve vs thumbor 7.8: {os.cpu_count()} cores, loopback, wrk -t1 -c{a.concurrency} -d{a.seconds}s")
    print(f"{'case':<9} {'server':<8} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/resp':>12}")
    try:
        for case in a.cases.split(","):
            frost_paths, thumbor_paths, (cached, source_cache) = table[case]
            rows = {}
            for server in ("frost", "thumbor"):
                cache = os.path.join(work, f"{server}-cache-{case}") if cached else None
                proc, port = (start_frost(a.frost_serve, images, cache, source_cache) if server == "frost"
                              else start_thumbor(a.thumbor, images, work, cache))
                try:
                    paths = frost_paths if server == "frost" else thumbor_paths
                    if cached:   # the one result made and stored before the timed run
                        urllib.request.urlopen(f"http://127.0.0.1:{port}{paths[0]}", timeout=60).read()
                    rows[server] = wrk(proc, port, paths, a.seconds, a.concurrency, work)
                finally:
                    stop(proc)
                n, rps, p50, p99, cpu = rows[server]
                print(f"{case:<9} {server:<8} {n:>9} {rps:>8.1f} {p50:>8.1f} {p99:>8.1f} {cpu:>12.3f}", flush=True)
            print(f"{case:<9} frost's CPU per response: {rows['thumbor'][4] / rows['frost'][4]:.1f}x less than thumbor's; "
                  f"requests per second {rows['frost'][1] / rows['thumbor'][1]:.1f}x", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
