"""make serve-bench: frost serve against thumbor 7.8 on loopback, the same image and requests.

Both servers are started here on free ports, each in its strongest configuration for this machine:
frost-serve (release, `make serve-build`) with a worker per core; thumbor with a process per core
(`--processes`), Pillow, no storage of sources. The load is wrk (one thread, C, so the client
costs little of the cores the servers share with it) for SECONDS per case at CONCURRENCY open
connections:

  fit-webp   the 2048x1536 JPEG fitted to 500x500, WebP quality 80
  fit-jpeg   the same as JPEG quality 80
  blur-320   320 wide, then a gaussian blur of sigma 8 (thumbor: blur(24,8), radius 3 sigma)

each with distinct URLs (a counter in the URL: no result is reused) and, with each server's result
cache on (frost: --cache; thumbor: its file result storage), the same URL repeated. Printed:
requests per second, p50 and p99 latency, and frost's ratio. Usage:
  serve_bench.py FROST_SERVE THUMBOR [--seconds S] [--concurrency C] [--cases a,b]
"""
import argparse
import os
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

CASES = {
    "fit-webp": ("/_/rs:fit:500:500/q:80{bust}/plain/local:///photo.jpg@webp",
                 "/unsafe/fit-in/500x500/filters:format(webp):quality(80)/photo.jpg{bust}"),
    "fit-jpeg": ("/_/rs:fit:500:500/q:80{bust}/plain/local:///photo.jpg@jpg",
                 "/unsafe/fit-in/500x500/filters:quality(80)/photo.jpg{bust}"),
    "blur-320": ("/_/rs:fit:320:0/bl:8/q:80{bust}/plain/local:///photo.jpg@jpg",
                 "/unsafe/fit-in/320x0/filters:blur(24,8):quality(80)/photo.jpg{bust}"),
}


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


def start_frost(binary, images, cache):
    port = free_port()
    args = [binary, "--root", images, "--bind", f"127.0.0.1:{port}", "--allow-unsigned", "--queue", "1024"]
    if cache:
        args += ["--cache", cache]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_ready(f"http://127.0.0.1:{port}/health")
    return proc, port


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
    proc = subprocess.Popen([binary, "--port", str(port), "--ip", "127.0.0.1", "--conf", conf,
                             "--processes", str(os.cpu_count())],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    wait_ready(f"http://127.0.0.1:{port}/healthcheck")
    return proc, port


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except Exception:
        proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def wrk(port, path, distinct, seconds, concurrency, work, bust):
    """Requests per second and p50/p99 latency (ms) of wrk on `path` ({bust} a counter, or nothing)."""
    script = os.path.join(work, "distinct.lua")
    with open(script, "w") as f:
        # A counter makes every URL distinct (wrk -t1: one Lua state).
        f.write("""local counter = 0
local template = os.getenv("FROST_BENCH_PATH")
local bust = os.getenv("FROST_BENCH_BUST")
request = function()
  counter = counter + 1
  local path = string.gsub(template, "{bust}", string.format(bust, counter))
  return wrk.format("GET", path)
end
""")
    env = dict(os.environ, FROST_BENCH_PATH=path, FROST_BENCH_BUST=bust)
    target = f"http://127.0.0.1:{port}" + (path.replace("{bust}", "") if not distinct else "/")
    args = ["wrk", "-t1", f"-c{concurrency}", f"-d{seconds}s", "--latency", "--timeout", "30s"]
    if distinct:
        args += ["-s", script]
    out = subprocess.run(args + [target], capture_output=True, text=True, env=env).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"serve_bench: {non2xx.group(1)} errors on {target}:\n{out}")

    def percentile(p):
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    return rps, percentile(50), percentile(99)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("frost")
    parser.add_argument("thumbor")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--cases", default=",".join(CASES))
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="frost-serve-bench-")
    images = os.path.join(work, "images")
    os.makedirs(images)
    shutil.copy(IMAGE, os.path.join(images, "photo.jpg"))
    print(f"frost serve vs thumbor 7.8: {os.cpu_count()} cores, loopback, wrk -t1 -c{a.concurrency} -d{a.seconds}s, "
          f"2048x1536 JPEG")
    print(f"{'case':<10} {'urls':<9} {'frost req/s':>12} {'p50 ms':>8} {'p99 ms':>8} {'thumbor req/s':>14} "
          f"{'p50 ms':>8} {'p99 ms':>8} {'ratio':>7}")
    try:
        for cached in (False, True):
            frost_cache = os.path.join(work, "frost-cache") if cached else None
            thumbor_cache = os.path.join(work, "thumbor-cache") if cached else None
            frost, frost_port = start_frost(a.frost, images, frost_cache)
            thumbor, thumbor_port = start_thumbor(a.thumbor, images, work, thumbor_cache)
            try:
                for case in a.cases.split(","):
                    frost_path, thumbor_path = CASES[case]
                    # frost: a cache buster; thumbor (which keeps no result without result storage): a query.
                    f = wrk(frost_port, frost_path, not cached, a.seconds, a.concurrency, work, "/cb:%d")
                    t = wrk(thumbor_port, thumbor_path, not cached, a.seconds, a.concurrency, work, "?n=%d")
                    print(f"{case:<10} {'repeated' if cached else 'distinct':<9} {f[0]:>12.1f} {f[1]:>8.1f} {f[2]:>8.1f} "
                          f"{t[0]:>14.1f} {t[1]:>8.1f} {t[2]:>8.1f} {f[0] / t[0]:>6.1f}x", flush=True)
            finally:
                stop(frost)
                stop(thumbor)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
