#!/usr/bin/env bash
# make requests: 64 requests (JPEGs of 1 to 4 Mpixel; decode, blur σ 8, WebP quality 80) through the
# library's async calls, 16 in flight (Benchmarks/Requests), against the same files as a `frost blur`
# batch with --jobs 1, 2 and 4; ROUNDS rounds of each, alternating. docs/performance.md,
# "Concurrent requests".
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
frost=.build/release/frost
requests=Benchmarks/.build/release/frost-requests
in=out/requests/in
if [ ! -f "$in/r63.jpg" ]; then
  mkdir -p "$in"
  sources=(SampleImages/UNIS_EV0.jpg SampleImages/rocket.jpg SampleImages/coffee.png)
  for i in $(seq 0 63); do
    # 1 to 4 Mpixel in even steps, landscape 4:3, portrait 3:4 and square in turn, every source in turn.
    read -r w h < <(python3 -c "a = (1 + 3 * $i / 63) * 1e6; r = (4 / 3, 3 / 4, 1)[$i % 3]; w = round((a * r) ** 0.5); print(w, round(a / w))")
    "$frost" resize "${sources[$((i % 3))]}" "$in/r$i.jpg" --width $w --height $h --fit cover --quality 90 >/dev/null
  done
fi
echo "inputs: $(ls $in | wc -l) JPEGs, $(du -sh $in | cut -f1)"
for round in $(seq 1 "$rounds"); do
  "$requests" "$in" out/requests/async 16 1 | sed "s/^round 1/async round $round/"
  for jobs in 1 2 4; do
    rm -rf out/requests/batch
    start=$(date +%s%N)
    "$frost" blur "$in"/*.jpg --sigma 8 -o 'out/requests/batch/%s.webp' --quality 80 --jobs $jobs >/dev/null 2>&1
    echo "batch round $round: --jobs $jobs: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  done
done
