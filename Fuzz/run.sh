#!/usr/bin/env bash
# make fuzz: runs each FrostFuzz target for SECONDS with its seeds and dictionary, keeping its corpus in
# out/fuzz/<target>/corpus across runs. A crash, leak, timeout or out-of-memory input is copied to
# Tests/Fixtures/fuzz/<target>/, where FuzzReplayTests runs it on every `make test`, and the run fails.
# With FUZZ_SMOKE=1 (make test's short run) a finding is printed, its input in base64 so that it can be
# kept from a CI log, but does not fail the run: a random search is no gate; the kept findings'
# replay (FuzzReplayTests) is.
# Usage: Fuzz/run.sh SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=$1; shift
bin=.build-fuzz/release/frost-fuzz
frost=.build/release/frost
[ -x "$frost" ] || frost=.build/debug/frost
[ -x "$frost" ] || { swift build >/dev/null && frost=.build/debug/frost; }
corpus=${FROST_CORPUS:-Tests/Corpus}
found=0
for target in "$@"; do
  work=out/fuzz/$target
  mkdir -p "$work/corpus" "$work/seeds" "Tests/Fixtures/fuzz/$target"
  case $target in
    decode|info|stream|entrance)
      find "$corpus" -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.jpeg' -o -name '*.webp' \) -size -300k 2>/dev/null |
        while read -r f; do cp "$f" "$work/seeds/$(printf %s "$f" | md5sum | cut -c1-10).${f##*.}"; done
      # WebP seeds (the corpus has none): lossless and lossy, opaque and with alpha, 48 pixels wide,
      # and an animation of 31 frames 16 pixels wide.
      for s in rocket.jpg coffee-cutout.png; do
        "$frost" resize "SampleImages/$s" "$work/seeds/${s%.*}-lossless.webp" --width 48 --lossless >/dev/null
        "$frost" resize "SampleImages/$s" "$work/seeds/${s%.*}-lossy.webp" --width 48 --quality 60 >/dev/null
      done
      "$frost" animate SampleImages/motion/vesper-transition.json -o "$work/seeds/vesper.webp" --scale 0.05 --lossless >/dev/null
      # AVIF and HEIC seeds: the test files avifenc and heif-enc made (all under 45 kB); GIF, APNG
      # and WebP animations: those gifsicle, ImageMagick, ffmpeg and img2webp made.
      cp Tests/Fixtures/heif/*.avif Tests/Fixtures/heif/*.heic Tests/Fixtures/animation/*.gif \
        Tests/Fixtures/animation/ffmpeg.apng.png Tests/Fixtures/animation/img2webp.webp "$work/seeds/"
      dict=Fuzz/dictionaries/decode.dict ;;
    scene|motion)
      cp SampleImages/scenes/*.json SampleImages/motion/*.json "$work/seeds/"
      dict=Fuzz/dictionaries/scene.dict ;;
    cache)
      if [ ! -s "$work/seeds/coffee.cache" ]; then
        cp SampleImages/coffee.png "$work/small.png"
        "$frost" cache "$work/small.png" -o "$work/small.frost" --levels 3 --max-sigma 6 >/dev/null &&
          python3 Fuzz/pack.py "$work/small.frost" "$work/seeds/coffee.cache"
      fi
      dict=Fuzz/dictionaries/cache.dict ;;
    inputs)
      printf 'a.jpg\n../b.png\n/abs/c.webp\nd/./e.jpg\n# a comment\n\nx/../../y.png\n' > "$work/seeds/list.txt"
      dict="" ;;
    placeholder)
      for s in rocket.jpg coffee-cutout.png; do
        "$frost" placeholder "SampleImages/$s" | sed 's/^[^:]*: //' | tr -d '\n' > "$work/seeds/${s%.*}.blurhash"
        "$frost" placeholder "SampleImages/$s" --kind thumbhash | sed 's/^[^:]*: //' | base64 -d > "$work/seeds/${s%.*}.thumbhash"
      done
      dict="" ;;
    service-url)
      printf '/sig/rs:fit:300:0/plain/local:///a/b.jpg@webp' > "$work/seeds/plain"
      printf '/_/g:soea:5:6/rs:fill:300:200:1:1/bl:8/q:80/bg:ff0000/cb:v2/bG9jYWw6Ly8v/YS9iLmpwZw.png' > "$work/seeds/base64"
      printf '/sig/pr:p/plain/local:///a/%%2e%%2e/out.jpg' > "$work/seeds/dots"
      printf '/sig/levels:4/ms:20/f:webp/q:80/plain/local:///a/b.jpg' > "$work/seeds/cache"
      printf '/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/level-01.png' > "$work/seeds/cache-file"
      # Remote sources of every shape RemoteURL reads or refuses (a port out of range crashed NIO).
      printf '/sig/w:50/plain/http://127.0.0.1:99999/a.jpg@png' > "$work/seeds/remote-port"
      printf '/sig/w:50/plain/http://u:p@[::ffff:127.0.0.1]:8080/a%%20b.jpg?x=1#f@png' > "$work/seeds/remote-v6"
      printf '/sig/w:50/plain/https://LOCALHOST:65535/a.jpg' > "$work/seeds/remote-name"
      # Objects: a version id, a key with an escaped ? and %, a bucket not allowed, the base64 form.
      printf '/sig/rs:fit:300:0/plain/s3://photos/2024/a%%20b.jpg%%3F3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY@webp' > "$work/seeds/s3-version"
      printf '/sig/w:50/plain/s3://photos/a%%253Fb%%2525.jpg' > "$work/seeds/s3-escaped"
      printf '/sig/w:50/plain/s3://other.bucket_1/a.jpg?v#f' > "$work/seeds/s3-other"
      printf '/_/w:50/czM6Ly9waG90b3MvYS5qcGc.png' > "$work/seeds/s3-base64"
      dict=Fuzz/dictionaries/service.dict ;;
    png-round-trip)
      head -c 4096 /dev/urandom > "$work/seeds/random"
      dict="" ;;
  esac
  log=$work/fuzz.log
  FROST_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=Fuzz/lsan.supp \
    "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=262144 -print_final_stats=1 \
      -artifact_prefix="$work/" ${dict:+-dict="$dict"} "$work/corpus" "$work/seeds" > "$log" 2>&1
  status=$?
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  coverage=$(grep -E '[[:space:]]cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+')
  stats=${execs:+$execs executions, $coverage}
  artifacts=$(ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
  for a in $artifacts; do cp "$work/$a" "Tests/Fixtures/fuzz/$target/$a"; rm "$work/$a"; done
  printf '%-16s %s\n' "$target" "${stats:-no statistics (exit $status): see $log}"
  if [ -n "$artifacts" ] || [ $status -ne 0 ]; then
    found=1
    grep -E 'ERROR|SUMMARY|Fatal error|precondition' "$log" | head -5 | sed 's/^/    /'
    for a in $artifacts; do
      echo "    kept: Tests/Fixtures/fuzz/$target/$a (base64: $(base64 -w0 "Tests/Fixtures/fuzz/$target/$a" | head -c 4000))"
    done
  fi
done
[ "${FUZZ_SMOKE:-0}" = 1 ] && { [ $found = 1 ] && echo "fuzz smoke: findings above (not failing the run)"; exit 0; }
exit $found
