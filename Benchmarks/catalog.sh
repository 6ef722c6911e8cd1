#!/bin/sh
# A catalog of 24 images cut from the corpus photos with frost itself (resize --fit cover): eight
# 1500x500 banners (JPEG), eight 1170x2532 phone snapshots (PNG) and eight 2048x1536 photos (JPEG);
# five photos as they are and three with their colors changed, per shape. For the many-file and
# cache-format measurements (docs/performance.md).
# Usage: Benchmarks/catalog.sh FROST CORPUS_PHOTOS OUTDIR
set -e
frost=$1 photos=$2 out=$3
mkdir -p "$out"
for shape in banner:1500:500:jpg phone:1170:2532:png photo:2048:1536:jpg; do
  IFS=: read name w h ext <<EOS
$shape
EOS
  # --quality is for the JPEGs only: frost refuses an option its output format ignores.
  quality=""; [ "$ext" = jpg ] && quality="--quality 92"
  for p in UNIS_EV0.jpg astronaut.png coffee.png eagle.png rocket.jpg; do
    "$frost" resize "$photos/$p" "$out/$name-${p%.*}.$ext" --width "$w" --height "$h" --fit cover $quality
  done
  for p in UNIS_EV0.jpg eagle.png astronaut.png; do
    "$frost" run "$photos/$p" "$out/$name-${p%.*}-warm.$ext" resize:width=$w,height=$h,fit=cover \
      adjust:saturation=1.4,gamma=0.85 $quality
  done
done
