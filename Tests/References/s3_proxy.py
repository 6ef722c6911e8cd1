"""A proxy on loopback in front of the test S3 server that counts and breaks things.

Every request is forwarded unchanged (the Host header too, so the signature the client made for the
proxy's address is the one the server checks) and logged as a JSON line: method, path, query, the
Range header, status and the bytes of the response body sent. Rules, each KEY a substring of the
path and N how many times (-1: every time):

    --slowdown KEY:N       answer 503 SlowDown instead of forwarding
    --drop KEY:N           a GET's response cut after half its body, the connection closed
    --stall KEY:N          a GET's response stopped after half its body, the connection held open
                           (until the client closes it, or 60 s): a client caught mid-download
    --backdate KEY:S       in a listing, the LastModified of keys containing KEY made S seconds older
    --delete-on-get KEY    before forwarding the first GET of KEY, delete that object (through the
                           server, with the credentials of --admin FILE: s3_server.py's JSON line)

With --cert PEM --key PEM it speaks TLS (that certificate chain and key) and its endpoint is
https: the client's certificate checks meet a real handshake. Prints {"endpoint": ...} once
listening, then serves until its standard input closes.
    python s3_proxy.py --upstream http://127.0.0.1:PORT --log FILE [--cert PEM --key PEM] [rules]
"""
import argparse
import http.client
import json
import re
import socket
import ssl
import sys
import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

parser = argparse.ArgumentParser()
parser.add_argument("--upstream", required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--slowdown", action="append", default=[])
parser.add_argument("--drop", action="append", default=[])
parser.add_argument("--stall", action="append", default=[])
parser.add_argument("--backdate", action="append", default=[])
parser.add_argument("--delete-on-get", action="append", default=[])
parser.add_argument("--admin")
parser.add_argument("--cert")
parser.add_argument("--key")
args = parser.parse_args()

upstream = urlsplit(args.upstream)
lock = threading.Lock()
counts = {}


def rules(option):
    out = []
    for rule in option:
        key, _, n = rule.rpartition(":")
        out.append([key, int(n)])
    return out


slowdowns, drops, stalls = rules(args.slowdown), rules(args.drop), rules(args.stall)
deletions = list(args.delete_on_get)
backdates = rules(args.backdate)


def backdated(payload):
    """A ListObjectsV2 page with the LastModified of the keys --backdate names moved back (an
    object written long ago, which a moto server cannot make)."""
    def entry(match):
        block = match.group(0)
        key = unquote(re.search(r"<Key>(.*?)</Key>", block).group(1))
        seconds = next((s for prefix, s in backdates if prefix in key), 0)
        def shift(when):
            then = datetime.strptime(when.group(1)[:19], "%Y-%m-%dT%H:%M:%S") - timedelta(seconds=seconds)
            return "<LastModified>" + then.strftime("%Y-%m-%dT%H:%M:%S.000Z") + "</LastModified>"
        return re.sub(r"<LastModified>(.*?)</LastModified>", shift, block) if seconds else block
    return re.sub(r"<Contents>.*?</Contents>", entry, payload.decode(), flags=re.S).encode()


def take(table, path):
    with lock:
        for rule in table:
            if rule[0] in path and rule[1] != 0:
                rule[1] -= 1
                return True
    return False


def log(entry):
    with lock, open(args.log, "a") as f:
        f.write(json.dumps(entry) + "\n")


def delete(key_path):
    import boto3
    admin = json.load(open(args.admin))
    s3 = boto3.client("s3", endpoint_url=args.upstream, region_name="us-east-1",
                      aws_access_key_id=admin["access_key_id"], aws_secret_access_key=admin["secret_access_key"])
    bucket, _, key = unquote(key_path).lstrip("/").partition("/")
    s3.delete_object(Bucket=bucket, Key=key)


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def forward(self):
        path = self.path.split("?")[0]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        entry = {"method": self.command, "path": unquote(path), "query": self.path.partition("?")[2],
                 "range": self.headers.get("Range"), "sent": 0}
        # Each request is logged before its response ends: the client may read the log as soon as
        # its request returns (or fails, for a connection cut).
        if take(slowdowns, path):
            payload = b"<?xml version='1.0' encoding='UTF-8'?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
            entry.update(status=503, sent=len(payload))
            log(entry)
            self.send_response(503)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            # A HEAD's answer has no body (one would be read as the next response).
            if self.command != "HEAD":
                self.wfile.write(payload)
            return
        if self.command == "GET":
            with lock:
                hit = next((d for d in deletions if d in path), None)
                if hit:
                    deletions.remove(hit)
            if hit:
                delete(path)
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items()}
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        if backdates and self.command == "GET" and "list-type" in self.path and response.status == 200:
            payload = backdated(payload)
        cut = self.command == "GET" and response.status == 200 and len(payload) > 1
        dropped = cut and take(drops, path)
        stalled = cut and not dropped and take(stalls, path)
        sent = 0 if self.command == "HEAD" else len(payload) // 2 if dropped or stalled else len(payload)
        entry.update(status=response.status, sent=sent)
        if dropped:
            entry["dropped"] = True
        if stalled:
            entry["stalled"] = True
        log(entry)
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server"):
                self.send_header(name, value)
        declared = response.getheader("Content-Length")
        self.send_header("Content-Length", declared if self.command == "HEAD" and declared else str(len(payload)))
        self.end_headers()
        self.wfile.write(payload[:sent])
        if stalled:
            self.wfile.flush()
            self.connection.settimeout(60)
            try:
                self.connection.recv(1)
            except OSError:
                pass
        if dropped or stalled:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = forward


server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
scheme = "http"
if args.cert:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    # The handshake happens in each connection's own thread, on its first read: a client that
    # refuses the certificate fails its thread alone, never the accepting loop.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    scheme = "https"
threading.Thread(target=server.serve_forever, daemon=True).start()
print(json.dumps({"endpoint": f"{scheme}://127.0.0.1:{server.server_address[1]}"}), flush=True)
sys.stdin.read()
server.shutdown()
