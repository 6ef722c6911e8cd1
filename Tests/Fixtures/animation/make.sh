#!/bin/sh
# Makes the animation test files and their reference frames (Debian 12: ImageMagick 6.9.11,
# gifsicle 1.93, ffmpeg 5.1, img2webp 1.2.4); Frost makes none of them. Run from this folder:
#   sh make.sh ../../Corpus
set -e
corpus=${1:?corpus folder}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Frames: a 64x48 photo, then patches of another, one of them with a transparent colour.
convert "$corpus/photos/coffee.png" -resize 64x48! -colors 64 "$tmp/base.gif"
convert "$corpus/photos/rocket.jpg" -crop 240x160+200+120 +repage -resize 24x16! -colors 32 "$tmp/patch.gif"
convert "$corpus/photos/astronaut.png" -resize 20x20! -colors 16 -fill '#00ff00' -draw 'rectangle 6,6 13,13' \
  -transparent '#00ff00' "$tmp/holed.gif"
convert "$corpus/photos/rocket.jpg" -resize 64x48! -colors 128 "$tmp/other.gif"

# Every disposal: 2 (background: cleared to transparent) after the patch, 3 (previous) after the
# holed frame, each frame its own local colour table, delays 0.1 s to 0.5 s, looping forever.
gifsicle --loopcount=0 --delay 10 --disposal none "$tmp/base.gif" \
  --delay 20 --disposal background --position 8,6 "$tmp/patch.gif" \
  --delay 30 --disposal previous --position 30,20 "$tmp/holed.gif" \
  --delay 50 --disposal none --position 40,2 "$tmp/patch.gif" \
  --delay 0 --position 0,0 "$tmp/other.gif" > disposal.gif
# The same interlaced, and as gifsicle -O3 optimises it (frames cut to what changed, transparency).
gifsicle --interlace disposal.gif > interlaced.gif
gifsicle -O3 disposal.gif > optimized.gif
# Frames with local colour tables of their own (ImageMagick keeps each frame's palette).
convert -delay 15 "$tmp/base.gif" -delay 25 "$tmp/other.gif" -loop 0 local-tables.gif
# A still GIF87a-style file without a graphic control block.
convert "$corpus/photos/eagle.png" -resize 40x50! -colors 8 still.gif

# Reference frames: ImageMagick's coalesced frames (disposal applied), as RGBA PNGs. The interlaced
# and optimised files show the very frames of disposal.gif (ImageMagick coalesces them alike).
for f in disposal local-tables still; do
  convert "$f.gif" -coalesce "PNG32:$f-%d.png"
done

# The disposal GIF as ffmpeg's APNG encoder writes it: it picks dispose (none, background,
# previous) and blend (source, over) per frame, so every operation is there (its reference frames
# are ffmpeg's own APNG decoding: ffmpeg's GIF reader fills a cleared area where ImageMagick leaves
# it transparent); and as an animated WebP (img2webp, lossless), whose frames must be the GIF's.
ffmpeg -v error -y -i disposal.gif -plays 0 -f apng ffmpeg.apng.png
for k in 0 1 2 3 4; do convert "disposal-$k.png" "$tmp/frame-$k.png"; done
ffmpeg -v error -y -i ffmpeg.apng.png -fps_mode passthrough -pix_fmt rgba -start_number 0 -f image2 ffmpeg.apng-%d.png
img2webp -loop 0 -lossless -d 100 "$tmp/frame-0.png" -d 200 "$tmp/frame-1.png" -d 300 "$tmp/frame-2.png" \
  -d 500 "$tmp/frame-3.png" -d 100 "$tmp/frame-4.png" -o img2webp.webp >/dev/null
