"""Reference colour conversions for Frost's tests: Pillow's ImageCms (Little CMS 2), the library
Frost converts with, called as its users call it.

Usage: colour.py IN.png PROFILE.icc OUT.png INTENT [TARGET.icc]
Reads IN.png's pixels as being in PROFILE.icc (RGB; the gray of a Gray profile), converts them to
lcms2's built-in sRGB (or to TARGET.icc) with the ICC rendering intent (0 perceptual, 1 relative,
2 saturation, 3 absolute) and writes OUT.png (RGB, alpha dropped).

Usage: colour.py --cmyk IN.jpg PROFILE.icc OUT.png [INTENT]
A CMYK JPEG (Adobe's inverted samples, which Pillow undoes on reading) converted to sRGB, relative
colorimetric unless INTENT says otherwise.

Usage: colour.py --make-cmyk OUT.jpg PROFILE.icc
Writes a 48×32 CMYK JPEG of gradients (quality 100) with PROFILE.icc embedded, as Pillow writes one.

Usage: colour.py --embed IN.png PROFILE.icc OUT
Writes IN.png's RGB pixels (or its gray, for a gray IN.png) to OUT (.jpg at quality 95, .png or
.webp lossless) with PROFILE.icc embedded untouched, whatever it describes (- for none).
"""
import sys

from PIL import Image, ImageCms

if sys.argv[1] == "--make-cmyk":
    _, _, out, profile = sys.argv
    image = Image.new("CMYK", (48, 32))
    image.putdata([(x * 5, y * 7, (x + y) * 3, (x * y) % 96) for y in range(32) for x in range(48)])
    image.save(out, quality=100, icc_profile=open(profile, "rb").read())
    sys.exit(0)
if sys.argv[1] == "--embed":
    _, _, source, profile, out = sys.argv
    image = Image.open(source)
    image = image.convert("L" if image.mode in ("L", "LA", "I;16") else "RGB")
    image.save(out, quality=95, lossless=True, icc_profile=None if profile == "-" else open(profile, "rb").read())
    sys.exit(0)
if sys.argv[1] == "--cmyk":
    source, profile, out = sys.argv[2:5]
    intent = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    image = Image.open(source)
    assert image.mode == "CMYK", image.mode
    converted = ImageCms.profileToProfile(image, ImageCms.getOpenProfile(profile), ImageCms.createProfile("sRGB"),
                                          renderingIntent=intent, outputMode="RGB")
else:
    source, profile, out, intent = sys.argv[1:5]
    opened = ImageCms.getOpenProfile(profile)
    target = ImageCms.getOpenProfile(sys.argv[5]) if len(sys.argv) > 5 else ImageCms.createProfile("sRGB")
    gray = opened.profile.xcolor_space.strip() == "GRAY"
    image = Image.open(source).convert("L" if gray else "RGB")
    converted = ImageCms.profileToProfile(image, opened, target, renderingIntent=int(intent), outputMode="RGB")
converted.save(out)
