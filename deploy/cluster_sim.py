"""`make cluster-sim`: deploy/frost-cache-indexed-job.yaml run as a cluster would, without one.

Against a local S3 server (moto with every signature checked: Tests/References/s3_server.py), in a
versioned bucket named as the Job names it, holding a catalog: every index's exact command line
(the container's `sh -c` argument, JOB_COMPLETION_INDEX set, the Secret's keys in the environment,
a /tmp of its own as the pod's emptyDir) runs as a process, two at a time; one index is killed
with SIGKILL once its first cache is in the bucket and run again, as the Job's retry would. Then it
checks that
  - every index succeeded and wrote its report (one line per input of its shard with exactly the
    keys source, output, status, error, bytes, time and maybe note; disjoint shards whose union is
    the catalog; the retry's removal of what the killed run left, if anything, on lines of its own);
  - the caches equal, key for key and byte for byte (ETag), one run of the same command without
    --shard into another prefix;
  - no key was written by two indices: each key has one version, except the keys of the cache the
    killed index was writing when it died (rewritten by that same index's retry).
Usage: python deploy/cluster_sim.py FROST_BINARY
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import boto3
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
frost = os.path.abspath(sys.argv[1])
job = yaml.safe_load(open(os.path.join(ROOT, "deploy/frost-cache-indexed-job.yaml")))
container = job["spec"]["template"]["spec"]["containers"][0]
command = container["args"][0]
n = job["spec"]["completions"]
source_prefix = re.search(r"--batch (s3://\S+)", command).group(1)
output_prefix = re.search(r"-o (s3://\S+)", command).group(1)
bucket = source_prefix[len("s3://"):].split("/")[0]
catalog_key = source_prefix[len(f"s3://{bucket}/"):]
caches_key = output_prefix[len(f"s3://{bucket}/"):]

server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/References/s3_server.py")],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
keys = json.loads(server.stdout.readline())
env = dict(os.environ, AWS_ENDPOINT_URL=keys["endpoint"], AWS_ACCESS_KEY_ID=keys["access_key_id"],
           AWS_SECRET_ACCESS_KEY=keys["secret_access_key"], AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")
for variable in container.get("env", []):
    if "value" in variable:
        env[variable["name"]] = variable["value"]
s3 = boto3.client("s3", endpoint_url=keys["endpoint"], region_name="us-east-1",
                  aws_access_key_id=keys["access_key_id"], aws_secret_access_key=keys["secret_access_key"])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("cluster-sim: FAIL: " + message, file=sys.stderr)


try:
    s3.create_bucket(Bucket=bucket)
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    catalog = []
    for folder in ["SampleImages", "Tests/Corpus/photos"]:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.lower().endswith((".jpg", ".png", ".heic")):
                key = f"{catalog_key}{folder.split('/')[-1]}/{name}"
                s3.upload_file(os.path.join(ROOT, folder, name), bucket, key)
                catalog.append(f"s3://{bucket}/{key}")
    s3.put_object(Bucket=bucket, Key=f"{catalog_key}README.txt", Body=b"not an image")
    bin_dir = tempfile.mkdtemp()
    os.symlink(frost, os.path.join(bin_dir, "frost"))
    env["PATH"] = bin_dir + ":" + env["PATH"]

    pod_tmp, killed_tmp = [], None

    def start(index):
        """One pod: the command line with its index, and a /tmp of its own (the Job's emptyDir)."""
        pod_tmp.append(tempfile.mkdtemp(prefix=f"cluster-sim-{index}-"))
        process = subprocess.Popen(["/bin/sh", "-c", command], env=dict(env, JOB_COMPLETION_INDEX=str(index), TMPDIR=pod_tmp[-1]),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        process.tmp = pod_tmp[-1]
        return process

    def shard(key):
        """FileBatch.shard's FNV-1a (64-bit) of the key relative to the prefix, modulo N."""
        h = 0xcbf29ce484222325
        for byte in key.encode():
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
        return h % n

    def first_cache(index):
        """Waits for the index's first manifest in the bucket (the Job runs --quiet: no line per input)."""
        while True:
            listed = s3.list_objects_v2(Bucket=bucket, Prefix=caches_key).get("Contents", [])
            if any(o["Key"].endswith(".frost/manifest.json")
                   and shard(o["Key"][len(caches_key):-len(".frost/manifest.json")]) == index for o in listed):
                return
            time.sleep(0.05)

    # The index with the most inputs is killed: after its first cache, others are still being built.
    sizes = [sum(1 for url in catalog if shard(url.split(catalog_key, 1)[1]) == k) for k in range(n)]
    victim = max(range(n), key=lambda k: sizes[k])
    killed = False
    pending = list(range(n))
    started = time.monotonic()
    while pending:
        batch, pending = pending[:2], pending[2:]
        running = {index: start(index) for index in batch}
        if victim in running and not killed:
            process = running[victim]
            first_cache(victim)
            check(process.poll() is None, f"index {victim} ended before its kill")
            process.send_signal(signal.SIGKILL)
            process.wait()
            killed, killed_tmp = True, process.tmp
            print(f"cluster-sim: index {victim} ({sizes[victim]} inputs) killed with SIGKILL after its first cache; its retry starts")
            running[victim] = start(victim)
        for index, process in running.items():
            out, err = process.communicate()
            if index == victim:
                print(f"cluster-sim: index {victim}'s retry: {err.strip().splitlines()[-1]}")
            check(process.returncode == 0, f"index {index} exited {process.returncode}: {err.strip().splitlines()[-1:] if err else ''}")
    print(f"cluster-sim: {n} indices (one killed and retried) in {time.monotonic() - started:.1f} s")

    # Each index's report: one line per input of its shard; the shards disjoint, their union the catalog.
    seen = []
    for index in range(n):
        name = re.search(r'--report "?(s3://[^"\s]+)', command).group(1).replace("${JOB_COMPLETION_INDEX}", str(index))
        body = s3.get_object(Bucket=bucket, Key=name[len(f"s3://{bucket}/"):])["Body"].read().decode()
        lines = [json.loads(line) for line in body.splitlines()]
        keys = {"source", "output", "status", "error", "bytes", "time"}
        check(all(set(line) - {"note"} == keys for line in lines), f"report {index}'s keys: {lines}")
        # What the killed run left (a cache prefix without its manifest) is removed by its retry.
        inputs = [line for line in lines if line["status"] != "removed"]
        check(index == victim or len(inputs) == len(lines), f"report {index} removed what no run left: {lines}")
        check(all(line["status"] in ("built", "skipped") and line["bytes"] > 0 for line in inputs), f"report {index}: {lines}")
        seen += [line["source"] for line in inputs]
    check(sorted(seen) == sorted(catalog), f"the reports' sources are not the catalog once each: {sorted(seen)}")

    # One run of the same command without --shard, into another prefix.
    single_prefix = caches_key.rstrip("/") + "-single/"
    single = re.sub(r'--shard "\S+"', "", command).replace(output_prefix, f"s3://{bucket}/{single_prefix}")
    single = re.sub(r'--report "?\S+"?', "", single)
    run = subprocess.run(["/bin/sh", "-c", single], env=env, capture_output=True, text=True)
    check(run.returncode == 0, f"the single run failed: {run.stderr[-500:]}")

    def objects(prefix):
        found, token = {}, None
        while True:
            page = s3.list_objects_v2(Bucket=bucket, Prefix=prefix, **({"ContinuationToken": token} if token else {}))
            found.update({o["Key"][len(prefix):]: o["ETag"] for o in page.get("Contents", []) if "/reports/" not in o["Key"]})
            if not page.get("IsTruncated"):
                return found
            token = page["NextContinuationToken"]

    union, alone = objects(caches_key), objects(single_prefix)
    check(union.keys() == alone.keys(), f"keys differ: {sorted(set(union) ^ set(alone))}")
    check(all(union[k] == alone[k] for k in union.keys() & alone.keys()),
          f"bytes differ: {sorted(k for k in union.keys() & alone.keys() if union[k] != alone[k])}")
    check(len([k for k in union if k.endswith("/manifest.json")]) == len(catalog), "not one cache per image")

    # One version per key, but the killed index's interrupted cache (its retry rewrote those keys).
    versions, marker = {}, {}
    while True:
        page = s3.list_object_versions(Bucket=bucket, Prefix=caches_key, **marker)
        for v in page.get("Versions", []):
            versions[v["Key"]] = versions.get(v["Key"], 0) + 1
        if not page.get("IsTruncated"):
            break
        marker = {"KeyMarker": page["NextKeyMarker"], "VersionIdMarker": page["NextVersionIdMarker"]}
    twice = sorted(k for k, count in versions.items() if count > 1 and "/reports/" not in k)
    victim_report = s3.get_object(Bucket=bucket, Key=re.search(r'--report "?(s3://[^"\s]+)', command).group(1)
                                  .replace("${JOB_COMPLETION_INDEX}", str(victim))[len(f"s3://{bucket}/"):])["Body"].read().decode()
    victim_caches = {json.loads(line)["output"][len(f"s3://{bucket}/"):] + "/" for line in victim_report.splitlines()}
    check(all(any(k.startswith(c) for c in victim_caches) for k in twice), f"keys written twice outside the killed index's shard: {twice}")
    print(f"cluster-sim: {len(union)} objects in {len(catalog)} caches; union of {n} shards == one run; "
          f"{len(twice)} keys rewritten by the killed index's retry, every other key written once")
    # A download or a staged cache outlives only a killed process (its pod's /tmp goes with the pod).
    for folder in pod_tmp:
        left = os.listdir(folder)
        shutil.rmtree(folder, ignore_errors=True)
        check(left == [] or folder == killed_tmp, f"{folder} kept {left}")
finally:
    server.stdin.close()
    server.wait()

if failures:
    sys.exit(1)
print("cluster-sim: passed")
