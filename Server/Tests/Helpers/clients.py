"""Clients and origins that misbehave, for frost serve's tests (Server/Tests/FrostServerTests).

  clients.py idle PORT              connect ("connected"), send nothing: seconds until the server closes
  clients.py half PORT              send half a request head: seconds until closed
  clients.py keepalive PORT PATH    one whole request and its answer, then idle: seconds until closed
  clients.py slowread PORT PATH N   read the answer at N bytes a second through a small receive
                                    buffer; prints "head" once the head is in, then
                                    "STATUS RECEIVED CONTENT-LENGTH" at the end
  clients.py pipeline PORT PATH...  every request sent in one write on one connection, then the
                                    answers read in turn: "STATUS CONTENT-TYPE LENGTH" for each
  clients.py split PORT PATH        a request's head sent in two writes 0.3 s apart: "STATUS LENGTH"
  clients.py flood PORT PID PATH N  N requests sent at once, nothing read for 2 s, then every
                                    answer: "OKS GROWTH", the 200s and how much the server PID's
                                    resident memory grew meanwhile (MB)
  clients.py scatter PORT SEED N PATH...
                                    N requests for PATHs drawn at random (seeded) on one
                                    connection, their bytes cut at random places into writes a
                                    moment apart: "PATH STATUS CONTENT-TYPE LENGTH" per answer
  clients.py raw PORT TEXT          TEXT (\r and \n as escapes) sent in one write; then every
                                    answer, "STATUS CONTENT-TYPE LENGTH", until the server closes
                                    or is silent for 3 s ("closed" or "silent" last)
  clients.py drip-origin            an HTTP origin on 127.0.0.1 (its port printed first) whose
                                    bodies come a byte every half second
A close is seen as EOF or a reset. Nothing here waits longer than 60 s.
"""
import random
import socket
import sys
import threading
import time


def connect(port, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(60)
    s.connect(("127.0.0.1", port))
    return s


def until_closed(s, start):
    try:
        while s.recv(65536):
            pass
    except (ConnectionResetError, socket.timeout):
        pass
    return time.monotonic() - start


def read_head(s, data=b""):
    """An answer's head from `data` and the socket: status, content length, fields (lowercase
    names), and what came after the head."""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("closed before the head")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    fields = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), int(fields.get("content-length", "0")), fields, rest


def request(path):
    return ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % path).encode()


def read_answer(s, rest):
    """One whole answer from `rest` and the socket: status, content type, body, what follows it."""
    status, length, fields, data = read_head(s, rest)
    while len(data) < length:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("closed inside a body")
        data += chunk
    return status, fields.get("content-type", "-"), data[:length], data[length:]


def main():
    mode = sys.argv[1]
    if mode == "idle":
        s = connect(int(sys.argv[2]))
        print("connected", flush=True)
        print("%.2f" % until_closed(s, time.monotonic()))
    elif mode == "half":
        s = connect(int(sys.argv[2]))
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127")
        print("%.2f" % until_closed(s, time.monotonic()))
    elif mode == "keepalive":
        s = connect(int(sys.argv[2]))
        s.sendall(request(sys.argv[3]))
        status, length, _, rest = read_head(s)
        while len(rest) < length:
            rest += s.recv(65536)
        print("%d %.2f" % (status, until_closed(s, time.monotonic())))
    elif mode == "slowread":
        port, path, rate = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
        s = connect(port, rcvbuf=32768)
        s.sendall(request(path))
        status, length, _, rest = read_head(s)
        print("head", flush=True)
        received = len(rest)
        step = max(1, rate // 20)
        while received < length:
            try:
                chunk = s.recv(min(step, length - received))
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            received += len(chunk)
            time.sleep(len(chunk) / rate)
        print("%d %d %d" % (status, received, length), flush=True)
    elif mode == "pipeline":
        s = connect(int(sys.argv[2]))
        s.sendall(b"".join(request(path) for path in sys.argv[3:]))
        rest = b""
        for _ in sys.argv[3:]:
            status, kind, body, rest = read_answer(s, rest)
            print("%d %s %d" % (status, kind, len(body)), flush=True)
    elif mode == "split":
        s = connect(int(sys.argv[2]))
        whole = request(sys.argv[3])
        s.sendall(whole[:20])
        time.sleep(0.3)
        s.sendall(whole[20:])
        status, _, body, _ = read_answer(s, b"")
        print("%d %d" % (status, len(body)), flush=True)
    elif mode == "flood":
        port, pid, path, n = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])

        def resident():
            with open("/proc/%d/status" % pid) as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
        before = resident()
        s = connect(port, rcvbuf=65536)
        sender = threading.Thread(target=lambda: s.sendall(request(path) * n))
        sender.start()
        time.sleep(2)
        grown = resident() - before
        oks, rest = 0, b""
        for _ in range(n):
            status, _, _, rest = read_answer(s, rest)
            oks += status == 200
        sender.join()
        print("%d %.1f" % (oks, grown), flush=True)
    elif mode == "scatter":
        port, rng, n, paths = int(sys.argv[2]), random.Random(int(sys.argv[3])), int(sys.argv[4]), sys.argv[5:]
        chosen = [rng.choice(paths) for _ in range(n)]
        data = b"".join(request(path) for path in chosen)
        cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, n * 3)))
        s = connect(port)

        def send():
            start = 0
            for cut in cuts + [len(data)]:
                s.sendall(data[start:cut])
                start = cut
                time.sleep(rng.choice((0, 0, 0.001, 0.003)))
        sender = threading.Thread(target=send)
        sender.start()
        rest = b""
        for path in chosen:
            status, kind, body, rest = read_answer(s, rest)
            print("%s %d %s %d" % (path, status, kind.replace(" ", ""), len(body)), flush=True)
        sender.join()
    elif mode == "raw":
        s = connect(int(sys.argv[2]))
        s.sendall(sys.argv[3].replace("\\r", "\r").replace("\\n", "\n").encode("latin-1"))
        s.settimeout(3)
        rest = b""
        try:
            while True:
                status, kind, body, rest = read_answer(s, rest)
                print("%d %s %d" % (status, kind.replace(" ", ""), len(body)), flush=True)
        except SystemExit:
            print("closed", flush=True)
        except (socket.timeout, ConnectionResetError):
            print("silent", flush=True)
    elif mode == "drip-origin":
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        print(server.getsockname()[1], flush=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            conn, _ = server.accept()
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n\r\n")
            try:
                for _ in range(1000):
                    conn.sendall(b"\xff")
                    time.sleep(0.5)
            except OSError:
                pass
            conn.close()
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
