"""What each kind of `frost serve` request costs in memory, per source pixel (docs/serve.md, "Memory").

For every request kind a fresh server (release build, one worker, no source cache, `--cache` in a
temporary folder) is started on loopback and asked once; its peak resident memory (VmHWM in
/proc/PID/status) less its peak before the request, divided by the source's pixels, is the
request's cost in bytes per source pixel. The sources are a 7000x7000 PNG and JPEG (49 Mpixels,
made by ffmpeg's testsrc2 pattern: detail everywhere, as a photo).
Usage: python Benchmarks/serve_memory.py FROST_SERVE [SIDE]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

serve = os.path.abspath(sys.argv[1])
side = int(sys.argv[2]) if len(sys.argv) > 2 else 7000
pixels = side * side

KINDS = [
    ("resize a JPEG (shrink on load)", "/_/rs:fit:1024:1024/plain/local:///big.jpg@jpg"),
    ("resize a PNG", "/_/rs:fit:1024:1024/plain/local:///big.png@jpg"),
    ("crop a PNG, then resize", "/_/c:3000:3000/rs:fit:1024:1024/plain/local:///big.png@jpg"),
    ("blur a PNG at its size", "/_/bl:10/plain/local:///big.png@jpg"),
    ("a PNG as WebP at its size", "/_/plain/local:///big.png@webp"),
    ("fade:0.5, resized", "/_/fade:0.5/rs:fit:1024:1024/plain/local:///big.png@jpg"),
    ("fade:0.5 at the source's size", "/_/fade:0.5/plain/local:///big.png@jpg"),
    ("/cache, the defaults", "/cache/_/plain/local:///big.png"),
    ("/cache, the defaults, of a JPEG", "/cache/_/plain/local:///big.jpg"),
    ("/cache, levels:64/ms:250", "/cache/_/levels:64/ms:250/plain/local:///big.png"),
]


def peak(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM")


def measure(root, path):
    cache = tempfile.mkdtemp()
    proc = subprocess.Popen([serve, "--bind", "127.0.0.1:0", "--root", root, "--cache", cache, "--workers", "1",
                             "--source-cache-size", "0", "--timeout", "300", "--allow-unsigned"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(proc.stdout.readline().strip().rsplit(":", 1)[1])
        before = peak(proc.pid)
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
        with urllib.request.urlopen(request, timeout=300) as answer:
            answer.read()
            status = answer.status
        return status, peak(proc.pid) - before
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(cache)


root = tempfile.mkdtemp()
try:
    png, jpg = os.path.join(root, "big.png"), os.path.join(root, "big.jpg")
    for out in (png, jpg):
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", f"testsrc2=s={side}x{side}", "-frames:v", "1", "-y", out],
                       check=True)
    print(f"{side}x{side} sources ({pixels / 1e6:.0f} Mpixels), peak resident memory a request adds:")
    print(f"| request | MiB | bytes per source pixel |\n|---|---:|---:|")
    for name, path in KINDS:
        status, grown = measure(root, path)
        print(f"| {name} (`{path}`){'' if status == 200 else f' {status}'} | {grown / 1048576:.0f} | {grown / pixels:.2f} |", flush=True)
finally:
    shutil.rmtree(root)
