"""make serve-overload: frost serve past its capacity, on loopback. CLIENTS (default 64) keep-alive
clients ask for distinct 500x500 fits of the 2048x1536 JPEG for SECONDS (default 30), against a
server with --queue QUEUE (default 8) and the default workers (the cores). Printed per status:
answers, rate, p50/p99/max latency. The issue asks for 200s and 429s only, the 200s' p99 bounded.
Usage: serve_overload.py FROST_SERVE [--clients C] [--seconds S] [--queue Q]
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

from serve_bench import IMAGE, free_port, wait_ready


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("serve")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--queue", type=int, default=8)
    a = parser.parse_args()
    work = tempfile.mkdtemp(prefix="frost-serve-overload-")
    os.makedirs(os.path.join(work, "images"))
    shutil.copy(IMAGE, os.path.join(work, "images", "photo.jpg"))
    port = free_port()
    server = subprocess.Popen([a.serve, "--root", os.path.join(work, "images"), "--bind", f"127.0.0.1:{port}",
                               "--allow-unsigned", "--queue", str(a.queue)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    latencies, lock = {}, threading.Lock()
    try:
        wait_ready(f"http://127.0.0.1:{port}/health")
        stop = time.time() + a.seconds

        def client(k):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            i = 0
            while time.time() < stop:
                i += 1
                start = time.time()
                try:
                    connection.request("GET", f"/_/rs:fit:500:500/q:80/cb:{k}-{i}/plain/local:///photo.jpg@jpg")
                    response = connection.getresponse()
                    response.read()
                    status = response.status
                except Exception as error:
                    status = f"error ({type(error).__name__})"
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                with lock:
                    latencies.setdefault(status, []).append(time.time() - start)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    print(f"frost serve overload: {a.clients} clients, {a.seconds:g} s, --queue {a.queue}, {os.cpu_count()} cores")
    for status, values in sorted(latencies.items(), key=lambda item: str(item[0])):
        values.sort()
        print(f"status {status}: {len(values)} ({len(values) / a.seconds:.1f}/s), p50 {values[len(values) // 2] * 1000:.0f} ms, "
              f"p99 {values[int(len(values) * 0.99)] * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms")
    return 0 if set(latencies) <= {200, 429} else 1


if __name__ == "__main__":
    sys.exit(main())
