#!/usr/bin/env python3
"""Packs a cache folder (manifest.json and level-NN files) into one input of the `cache` fuzz target:
a 2-byte big-endian length and the manifest, then a 3-byte length and each level file in order."""
import json, os, sys

folder, out = sys.argv[1], sys.argv[2]
manifest = open(os.path.join(folder, "manifest.json"), "rb").read()
data = len(manifest).to_bytes(2, "big") + manifest
for level in json.loads(manifest)["levels"]:
    body = open(os.path.join(folder, level["file"]), "rb").read()
    data += len(body).to_bytes(3, "big") + body
open(out, "wb").write(data)
