"""Reference placeholders for Frost's tests: PyPI's blurhash-python (Wolt's C encoder) and
thumbhash (a port of Evan Wallace's encoder), run on the exact pixels Frost hashed.

Usage: placeholders.py FILE.png COMPONENTS_X COMPONENTS_Y ...  (triples)
Prints one JSON object per file: {"file", "blurhash", "thumbhash"} (thumbhash as standard
base64; null for an image with transparency: the port's alpha path raises, see docs/formats.md).
"""
import base64
import json
import sys

import blurhash
import thumbhash
from PIL import Image

args = sys.argv[1:]
for i in range(0, len(args), 3):
    path, cx, cy = args[i], int(args[i + 1]), int(args[i + 2])
    image = Image.open(path).convert("RGBA")
    w, h = image.size
    rgba = list(image.tobytes())
    opaque = all(a == 255 for a in rgba[3::4])
    thumb = base64.b64encode(bytes(thumbhash.rgba_to_thumb_hash(w, h, rgba))).decode() if opaque else None
    print(json.dumps({"file": path, "blurhash": blurhash.encode(image.convert("RGB"), cx, cy), "thumbhash": thumb}))
