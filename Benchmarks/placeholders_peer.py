"""The Python way to BlurHash a catalog, for docs/placeholders.md's comparison: Pillow(-SIMD) decodes
each JPEG at a reduced size (draft), shrinks to fit 100x100 and blurhash-python (Wolt's C encoder)
hashes 4x3 components; one process, files in order.

Usage: placeholders_peer.py FILE...   (prints "file: hash" lines, as `frost placeholder` does)
"""
import sys

import blurhash
from PIL import Image

for path in sys.argv[1:]:
    with Image.open(path) as image:
        image.draft("RGB", (200, 200))
        image = image.convert("RGB")
        image.thumbnail((100, 100))
        print(f"{path}: {blurhash.encode(image, 4, 3)}")
