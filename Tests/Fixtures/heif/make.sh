#!/bin/sh
# Makes the AVIF and HEIC test files and their reference decodings with the formats' own tools
# (Debian 12: ImageMagick 6 crops the corpus photos; libavif-bin 0.11.1's avifenc/avifdec;
# libheif-examples 1.15.1's heif-enc/heif-convert). Frost makes none of them. Run from this folder:
#   sh make.sh ../../Corpus ../../../SampleImages
set -e
corpus=${1:?corpus folder}
samples=${2:?SampleImages folder}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Sources: small crops (ICC and EXIF kept by ImageMagick).
convert "$corpus/photos/rocket.jpg" -crop 160x107+240+160 +repage -quality 95 "$tmp/rocket.jpg"
convert "$corpus/photos/UNIS_EV0.jpg" -crop 192x144+900+700 +repage -quality 95 "$tmp/unis.jpg"
convert "$corpus/photos/astronaut.png" -crop 128x128+192+64 +repage -depth 16 "$tmp/astronaut16.png"
convert "$corpus/photos/eagle.png" -crop 120x160+800+600 +repage "$tmp/eagle.png"
convert "$samples/coffee-cutout.png" -crop 150x100+75+50 +repage "$tmp/cutout.png"
convert "$corpus/photos/coffee.png" -crop 150x100+250+150 +repage "$tmp/coffee.png"

# AVIF: 4:2:0 lossy with ICC; 4:4:4 with alpha; 10-bit; monochrome (4:0:0); EXIF and XMP from the JPEG.
avifenc -s 8 -y 420 --min 20 --max 20 "$tmp/rocket.jpg" rocket-420.avif
avifenc -s 8 -y 444 --min 10 --max 10 "$tmp/cutout.png" cutout-444-alpha.avif
avifenc -s 8 -d 10 -y 444 --min 10 --max 10 "$tmp/astronaut16.png" astronaut-10bit.avif
avifenc -s 8 -y 400 --min 10 --max 10 "$tmp/eagle.png" eagle-gray.avif
avifenc -s 8 -y 420 --min 24 --max 24 "$tmp/unis.jpg" unis-exif.avif
for f in rocket-420 cutout-444-alpha eagle-gray unis-exif; do avifdec "$f.avif" "$f.png"; done
avifdec -d 8 astronaut-10bit.avif astronaut-10bit.png

# AVIF rotation and mirror (lossless, so the expected picture is the source turned by ImageMagick):
# irot 1 is a quarter turn anticlockwise, imir 0 exchanges top and bottom.
convert "$tmp/rocket.jpg" "$tmp/rocket.png"
avifenc -s 8 -l --irot 1 --imir 0 "$tmp/rocket.png" rocket-irot1-imir0.avif
convert "$tmp/rocket.png" -rotate -90 -flip rocket-irot1-imir0.png

# HEIC (x265): opaque, and with alpha.
heif-enc -q 70 "$tmp/coffee.png" -o coffee.heic
heif-enc -q 70 "$tmp/cutout.png" -o cutout-alpha.heic
heif-convert coffee.heic coffee-heic.png
heif-convert cutout-alpha.heic cutout-alpha-heic.png

# An AVIF sequence (lossless, 100 ticks a second) of the GIF fixture's frames, delays 0.1 0.2 0.3 0.5
# 0.1 s; avifdec --index decodes each frame for reference.
a=../animation
avifenc -s 8 -l --timescale 100 --duration 10 $a/disposal-0.png --duration 20 $a/disposal-1.png \
  --duration 30 $a/disposal-2.png --duration 50 $a/disposal-3.png --duration 10 $a/disposal-4.png sequence.avif
for k in 0 1 2 3 4; do avifdec --index $k sequence.avif sequence-$k.png; done

# CICP alone (no ICC): the photo's sRGB values signalled as Display P3 (12/13/6), and as 10-bit PQ
# BT.2020 (9/16/9, HDR).
convert "$corpus/photos/UNIS_EV0.jpg" -resize 96x -strip cicp-source.png
avifenc -s 8 -y 444 --min 10 --max 10 --cicp 12/13/6 cicp-source.png p3-cicp.avif
avifenc -s 8 -d 10 -y 444 --min 10 --max 10 --cicp 9/16/9 cicp-source.png pq-10bit.avif

# A frame larger than its header says (ffmpeg 5.1's librav1e): a 2000×2000 gray picture whose
# `ispe` box is rewritten to 100×100. The decoder must hold the frame itself to the pixel limit.
ffmpeg -v error -y -f lavfi -i color=gray:s=2000x2000 -frames:v 1 -c:v librav1e -speed 10 -pix_fmt yuv420p gray-2000.avif
python3 -c "
d = bytearray(open('gray-2000.avif', 'rb').read()); i = d.find(b'ispe')
d[i + 8:i + 16] = (100).to_bytes(4, 'big') * 2
open('ispe-100-frame-2000.avif', 'wb').write(d)"
rm gray-2000.avif
