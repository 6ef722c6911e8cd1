"""GIF quality against the true-colour frames: PSNR over the GIF's frames, each compared with the
source frame closest to it (a GIF may leave frames out, or time them differently: GIF counts
hundredths, and browsers show 0 and 1 as 10), and the file's size.

Usage: gif_quality.py SOURCE.png|.webp GIF...   (Pillow reads APNG, WebP and GIF with their disposal)
"""
import math
import os
import sys

import numpy as np
from PIL import Image


def frames(path):
    """[(start ms, RGB float array)] of an animation, composed as shown."""
    image, out, t = Image.open(path), [], 0
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        rgba = np.asarray(image.convert("RGBA"), dtype=np.float64)
        # Onto white, as a page shows transparency.
        rgb = rgba[..., :3] * rgba[..., 3:] / 255 + 255 * (1 - rgba[..., 3:] / 255)
        out.append((t, rgb))
        t += image.info.get("duration", 0) or 0
    return out


source = frames(sys.argv[1])
for path in sys.argv[2:]:
    gif = frames(path)
    mse = np.mean([min(np.mean((rgb - original) ** 2) for _, original in source) for _, rgb in gif])
    print(f"{os.path.basename(path)}: PSNR {10 * math.log10(255 ** 2 / mse):.2f} dB, {os.path.getsize(path)} bytes, "
          f"{len(gif)} frames for {len(source)}")
