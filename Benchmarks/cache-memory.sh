#!/usr/bin/env bash
# Peak resident memory of `frost cache` on a large JPEG (docs/effects.md, "Operating a large
# catalog"): a SIDE×SIDE JPEG made from the sample photo in a temporary folder (not kept), cached
# with the default plan by each FROST binary given, /usr/bin/time -v's maximum resident set size
# and wall time printed per binary, and bytes per pixel.
# Usage: Benchmarks/cache-memory.sh [SIDE] FROST...   (default SIDE 16000, FROST .build/release/frost)
set -euo pipefail
cd "$(dirname "$0")/.."
side=16000
if [[ ${1:-} =~ ^[0-9]+$ ]]; then side=$1; shift; fi
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(.build/release/frost)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${binaries[0]}" resize SampleImages/UNIS_EV0.jpg -o "$work/big.jpg" --width "$side" --height "$side" --fit fill --quality 85 > /dev/null
for frost in "${binaries[@]}"; do
  /usr/bin/time -v "$frost" cache "$work/big.jpg" -o "$work/cache" > /dev/null 2> "$work/time.txt"
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$work/time.txt")
  awk -v f="$frost" -v kb="$kb" -v w="$wall" -v s="$side" \
    'BEGIN { printf "%s: %dx%d JPEG: peak %.2f GiB (%.2f bytes per pixel), %s wall\n", f, s, s, kb / 1048576, kb * 1024 / (s * s), w }'
  rm -rf "$work/cache"
done
