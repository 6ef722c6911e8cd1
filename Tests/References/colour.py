"""Reference colour conversions for Frost's tests: Pillow's ImageCms (Little CMS 2), the library
Frost converts with, called as its users call it.

Usage: colour.py IN.png PROFILE.icc OUT.png INTENT
Reads IN.png's RGBA pixels as being in PROFILE.icc, converts them to lcms2's built-in sRGB with
the ICC rendering intent (0 perceptual, 1 relative, 2 saturation, 3 absolute) and writes OUT.png
(RGB, alpha dropped).

Usage: colour.py --cmyk IN.jpg PROFILE.icc OUT.png
A CMYK JPEG (Adobe's inverted samples, which Pillow undoes on reading) converted to sRGB, relative.

Usage: colour.py --make-cmyk OUT.jpg PROFILE.icc
Writes a 48×32 CMYK JPEG of gradients (quality 100) with PROFILE.icc embedded, as Pillow writes one.
"""
import sys

from PIL import Image, ImageCms

if sys.argv[1] == "--make-cmyk":
    _, _, out, profile = sys.argv
    image = Image.new("CMYK", (48, 32))
    image.putdata([(x * 5, y * 7, (x + y) * 3, (x * y) % 96) for y in range(32) for x in range(48)])
    image.save(out, quality=100, icc_profile=open(profile, "rb").read())
    sys.exit(0)
if sys.argv[1] == "--cmyk":
    _, _, source, profile, out = sys.argv
    image = Image.open(source)
    assert image.mode == "CMYK", image.mode
    converted = ImageCms.profileToProfile(image, ImageCms.getOpenProfile(profile), ImageCms.createProfile("sRGB"),
                                          renderingIntent=1, outputMode="RGB")
else:
    _, source, profile, out, intent = sys.argv
    image = Image.open(source).convert("RGB")
    converted = ImageCms.profileToProfile(image, ImageCms.getOpenProfile(profile), ImageCms.createProfile("sRGB"),
                                          renderingIntent=int(intent), outputMode="RGB")
converted.save(out)
