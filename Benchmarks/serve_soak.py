"""make serve-soak: frost serve under steady load for MINUTES (default 10) at CLIENTS (default 16)
keep-alive clients, on loopback. Every response is compared with the bytes the command line
writes for the same options (made first, with the same build); the server's resident memory is
read from /proc every 10 s. Printed: requests, errors, mismatches, and resident memory in the
second and the last minute (the issue asks the last within 10% of the second). --result-cache:
the server keeps its results (`--cache` in the run's folder), so most answers are results held in
memory, answered before the HTTP decoder.
Usage: serve_soak.py FROST FROST_SERVE [--minutes M] [--clients C] [--result-cache]
"""
import argparse
import http.client
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from serve_bench import free_port, wait_ready

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = os.path.join(ROOT, "SampleImages", "UNIS_EV0.jpg")

# URL options and the command line that writes the same bytes (imgproxy's defaults: quality 80, WebP
# 79, stripped; a fill whose centred crop falls on a whole pixel, where imgproxy's rounding and
# `--fit cover`'s agree).
CASES = [
    ("/_/rs:fit:300:0/plain/local:///photo.jpg@jpg", ["resize", "IN", "OUT.jpg", "--width", "300", "--quality", "80", "--strip"]),
    ("/_/rs:fit:500:500/plain/local:///photo.jpg@webp", ["resize", "IN", "OUT.webp", "--width", "500", "--height", "500", "--quality", "79", "--strip"]),
    ("/_/rs:fit:320:0/bl:8/plain/local:///photo.jpg@jpg", ["run", "IN", "OUT.jpg", "resize:width=320", "blur:sigma=8", "--quality", "80", "--strip"]),
    ("/_/rs:fill:256:144/plain/local:///photo.jpg@jpg", ["resize", "IN", "OUT.jpg", "--width", "256", "--height", "144", "--fit", "cover", "--quality", "80", "--strip"]),
]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("frost")
    parser.add_argument("serve")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--result-cache", action="store_true")
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="frost-serve-soak-")
    images = os.path.join(work, "images")
    os.makedirs(images)
    source = os.path.join(images, "photo.jpg")
    shutil.copy(IMAGE, source)
    expected = []
    for n, (url, cli) in enumerate(CASES):
        ext = cli[2].split(".")[-1]
        out = os.path.join(work, f"cli-{n}.{ext}")
        subprocess.run([a.frost] + [source if x == "IN" else out if x.startswith("OUT") else x for x in cli], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out, "rb") as f:
            expected.append(f.read())
    port = free_port()
    cache = ["--cache", os.path.join(work, "cache")] if a.result_cache else []
    server = subprocess.Popen([a.serve, "--root", images, "--bind", f"127.0.0.1:{port}", "--allow-unsigned"] + cache,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_ready(f"http://127.0.0.1:{port}/health")
    counts = {"requests": 0, "errors": 0, "mismatches": 0}
    lock = threading.Lock()
    stop = time.time() + a.minutes * 60

    def client(k):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        i = k
        while time.time() < stop:
            n = i % len(CASES)
            i += 1
            try:
                conn.request("GET", CASES[n][0])
                r = conn.getresponse()
                body = r.read()
                ok, same = r.status == 200, body == expected[n]
            except Exception:
                ok, same = False, False
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            with lock:
                counts["requests"] += 1
                counts["errors"] += 0 if ok else 1
                counts["mismatches"] += 0 if (same or not ok) else 1

    threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
    for t in threads:
        t.start()
    samples = []
    start = time.time()
    while time.time() < stop:
        time.sleep(10)
        samples.append((time.time() - start, rss_kb(server.pid)))
    for t in threads:
        t.join()
    server.terminate()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)

    def minute(m):
        values = [kb for t, kb in samples if m * 60 <= t < (m + 1) * 60]
        return sum(values) / len(values) / 1024 if values else float("nan")
    second, last = minute(1), minute(int(a.minutes) - 1)
    print(f"frost serve soak: {a.minutes:g} min, {a.clients} clients, {counts['requests']} requests "
          f"({counts['requests'] / (a.minutes * 60):.1f}/s), {counts['errors']} errors, {counts['mismatches']} responses unlike the CLI's")
    print(f"resident memory: second minute {second:.1f} MB, last minute {last:.1f} MB ({(last / second - 1) * 100:+.1f}%), "
          f"peak {max(kb for _, kb in samples) / 1024:.1f} MB")
    return 0 if counts["errors"] == 0 and counts["mismatches"] == 0 and last <= second * 1.1 else 1


if __name__ == "__main__":
    sys.exit(main())
