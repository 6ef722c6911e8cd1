# Frost: the two set-up commands are `make run` and `make test` (README). Both install what they
# need through `make deps` on a fresh Debian machine with Swift.

SWIFT   ?= swift
# Release builds target AVX2/FMA (docs/design.md, House style); CPU=baseline builds for plain x86-64.
CPU     ?= haswell
ifeq ($(CPU),baseline)
CPU_FLAGS :=
else
CPU_FLAGS := -Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=x86-64-v3
endif
RELEASE := -c release $(CPU_FLAGS)
FROST   := .build/release/frost
OUT     := out
# Debian packages the build, the tests and the demo need; ffmpeg for the MP4 output (`frost animate
# OUT.mp4`), which the tests exercise as well; webp (cwebp, dwebp, img2webp) makes test files; chromium shows `frost page` to the tests;
# libavif-dev and libheif-dev read and write AVIF and HEIC (Tests/Fixtures/heif/make.sh uses their tools, not installed here);
# liblcms2-dev converts colour; libcurl4-openssl-dev carries the S3 store's requests (FrostStorage); icc-profiles-free, colord-data and libgs-common (Ghostscript's CMYK profile) hold the
# profiles the colour tests convert from.
APT_PACKAGES := libcurl4-openssl-dev openssl libpng-dev libjpeg-dev libdeflate-dev libwebp-dev libavif-dev libheif-dev libgif-dev libimagequant-dev liblcms2-dev libfreetype-dev fonts-dejavu-core pkgconf ffmpeg webp chromium icc-profiles-free colord-data libgs-common

.PHONY: s3-bench cluster-sim deps build debug docs examples requests references check test test-asan test-tsan test-serve serve-build deploy-check image-check fuzz fuzz-build run gallery man bench compare compare-deps serve-bench serve-soak serve-overload clean

VENV      := Benchmarks/.venv
VENV_SIMD := Benchmarks/.venv-simd

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# The tool links Swift's runtime in (as the container image does): a process starts in 7 ms instead of
# 15 (`frost --version`, perf stat), which every whole command pays.
build: deps
	$(SWIFT) build $(RELEASE) --static-swift-stdlib

debug: deps
	$(SWIFT) build

# The loop before each commit: the debug build's unit, corpus and CLI tests (which run the built
# binary) and the replay of kept fuzz findings; about fifteen minutes on 2 cores.
check: deps references
	$(SWIFT) build --build-tests
	$(call test_env,.build) $(SWIFT) test --skip-build

# What the tests read: the frost binary of the build they test (FrostRun: scratch path, configuration)
# and the references' Python.
test_env = FROST_BIN=$(CURDIR)/$(1)/$(or $(2),debug)/frost FROST_REFERENCE_PYTHON=$(CURDIR)/$(REFERENCES)/bin/python

# The reference implementations the tests compare with (PlaceholderTests: PyPI's blurhash-python
# and thumbhash, through Tests/References/placeholders.py), in a venv of their own; and the storage
# tests' S3 server (moto's, authentication on: Tests/References/s3_server.py), the AWS CLI that puts
# their catalogs in and reads results out, and botocore, whose signatures the signer's are compared with.
REFERENCES := .build-references
references:
	@[ -x $(REFERENCES)/bin/python ] || python3 -m venv $(REFERENCES)
	@$(REFERENCES)/bin/python -c "import blurhash, thumbhash, PIL; assert PIL.__version__ == '13.0.0'" 2>/dev/null || \
	  $(REFERENCES)/bin/pip install -q blurhash-python==1.2.2 thumbhash==0.1.2 pillow==13.0.0
	@$(REFERENCES)/bin/python -c "import moto.server, awscli, flask_cors" 2>/dev/null || \
	  $(REFERENCES)/bin/pip install -q "moto[server]==5.2.1" awscli==1.45.11

# The full gate (CI runs it). Where the CPU has AVX2, the library suites on the release build: its
# kernels take CFrostSystem's AVX2 intrinsic paths, which the debug build (plain x86-64) never
# compiles, and the run-length deflate's vector compares, the direct PNG read's unfiltering and the
# PNG writer's packing (un-premultiplying, the alpha check) become AVX2 code. Then the debug build's
# suites but the sanitizer's (below: the same debug code under AddressSanitizer and UBSan), their
# command-line tests running the release `frost` as users run it (the debug binary made them 12×
# the CPU: OptionSweepTests 169 s against 14.5 s).
LIBRARY_SUITES := FrostTests|FrostClientsTests|FrostCoreTests|ColorConversionTests|FrostEffectsTests|FrostStreamTests|FrostCacheTests|FrostComposeTests|FrostMotionTests|RunLengthDeflateTests|PNGDirectReadTests|RoundTripTests
# Then the library suites under AddressSanitizer (+ UBSan on the C code) and a fuzz smoke of
# FUZZ_SMOKE_SECONDS per target (findings printed; the kept ones replay in FrostFuzzTests).
FUZZ_SMOKE_SECONDS ?= 20
test: deps references
	@if [ "$(CPU)" != baseline ] && grep -qw avx2 /proc/cpuinfo; then \
	  echo "$(SWIFT) test $(RELEASE) -Xswiftc -enable-testing --filter '$(LIBRARY_SUITES)'"; \
	  $(call test_env,.build,release) $(SWIFT) test $(RELEASE) -Xswiftc -enable-testing --filter '$(LIBRARY_SUITES)'; \
	else echo "no AVX2 here: the release kernels' AVX2 paths were not tested"; $(SWIFT) build $(RELEASE) --product frost; fi
	$(SWIFT) build --build-tests
	$(call test_env,.build,release) $(SWIFT) test --skip-build --skip '$(SANITIZER_SUITES)'
	$(MAKE) --no-print-directory man
	$(MAKE) --no-print-directory examples
	$(MAKE) --no-print-directory test-serve
	$(MAKE) --no-print-directory deploy-check
	$(MAKE) --no-print-directory image-check
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-tsan TSAN_SUITES='$(CONCURRENCY_SUITES)'
	FUZZ_SMOKE=1 $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

# deploy/Containerfile's build stage on what its COPY lines copy, in an empty folder: both
# products' builds planned (about a minute; IMAGE_CHECK=full builds them, ~20 minutes): deploy/image-check.sh.
image-check: deps
	deploy/image-check.sh

# `frost serve` (Server/, its own package: Hummingbird, SwiftNIO, AsyncHTTPClient, swift-prometheus):
# built once in debug and tested against the servers its tests start on loopback ports, and the
# S3 server (moto, from the references venv) its s3:// tests start as the engine's S3 tests do.
test-serve: debug references
	cd Server && $(SWIFT) build --build-tests && FROST_REFERENCE_PYTHON=$(CURDIR)/$(REFERENCES)/bin/python $(SWIFT) test --skip-build

# `frost cache --batch` over one 200-image catalog from a local folder and from a local S3 server
# (moto): Frost's own CPU and peak memory compared, and a no-op rerun's requests counted; LARGE=16000
# also caches one 16000² JPEG from a folder and from the bucket, and compares their peak memory (docs/storage.md).
s3-bench: build references
	$(REFERENCES)/bin/python Benchmarks/s3_bench.py $(FROST) $(or $(ROUNDS),3) $(or $(LARGE),0)

# deploy/frost-cache-indexed-job.yaml's command line run for every index against a local S3 server
# (moto), two at a time, one index killed with SIGKILL and retried; the union of the shards must
# equal one run and no key be written by two indices (deploy/cluster_sim.py).
cluster-sim: build references
	$(REFERENCES)/bin/python deploy/cluster_sim.py $(FROST)

# deploy/*.yaml validated offline (kubernetes-validate, a pinned Kubernetes version: deploy/validate.sh).
deploy-check:
	deploy/validate.sh .build-deploy

# The server for use: `frost serve` runs Server/.build/release/frost-serve.
serve-build: deps
	cd Server && $(SWIFT) build $(RELEASE) --static-swift-stdlib

# Sanitizer builds of the library suites (the C codecs, the kernels, the scheduler, the renderers):
# address + undefined behaviour, and threads. A finding stops the run (halt_on_error).
SANITIZER_SUITES := $(LIBRARY_SUITES)|FrostCodecsTests|FrostFuzzTests|FrostServiceTests
test-asan: deps references
	$(SWIFT) build --build-tests --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan
	$(call test_env,.build-asan) UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=halt_on_error=1:detect_leaks=0 SWIFT_BACKTRACE=enable=no \
	  $(SWIFT) test --skip-build --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan --filter '$(SANITIZER_SUITES)'

# `make test` runs the concurrency suites under ThreadSanitizer (the front door's concurrent calls,
# the scheduler, the strip executor); `make test-tsan` alone runs every library suite.
CONCURRENCY_SUITES := ConcurrencyTests|RowBandsTests|StreamedFilterTests
TSAN_SUITES ?= $(LIBRARY_SUITES)
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 SWIFT_BACKTRACE=enable=no \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_SUITES)'

# Examples/: a package that depends on Frost by path and writes only `import Frost`, built and run
# on SampleImages/ (blurred WebP thumbnails and their JSON index under out/examples/).
examples: deps
	cd Examples && $(SWIFT) build
	Examples/.build/debug/blurred-thumbnails SampleImages $(OUT)/examples/thumbnails
	@grep -q '"placeholder"' $(OUT)/examples/thumbnails/index.json

# libFuzzer over FrostFuzz's targets (Fuzz/): each runs FUZZ_SECONDS with its seeds and dictionary;
# findings are kept under Tests/Fixtures/fuzz/ and replayed by every `make test`.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= decode info entrance scene motion cache png-round-trip inputs stream placeholder service-url
fuzz-build: deps
	$(SWIFT) build -c release --product frost-fuzz --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address \
	  -Xcc -fsanitize=undefined -Xswiftc -DFROST_LIBFUZZER \
	  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

fuzz: fuzz-build
	Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The blur-cache demo on SampleImages/: a 10-level cache of every sample (batch, resumable), one
# listed and checked by `frost info`, each one's labelled contact sheet, a 12-frame fade sweep,
# Twitter's banner set for one photo and the light effect, every sample's placeholders (BlurHash,
# ThumbHash, data URL) and a ThumbHash drawn back;
# then the sample scenes (SampleImages/scenes/*.json) rendered by `frost compose`, and the seed apps'
# motions (SampleImages/motion/*.json) as animated PNGs and filmstrips by `frost animate`, one as a
# lossy animated WebP, that one resized into a GIF and a frame taken from it, and Vesper's transition
# as a GIF at 1x; a HEIC and a JPEG as AVIF,
# the JPEG as HEIC.
run: build
	@mkdir -p $(OUT)
	@$(FROST) info SampleImages/*.png SampleImages/*.jpg
	@$(FROST) cache --batch SampleImages -o $(OUT)/caches
	@$(FROST) info $(OUT)/caches/rocket.jpg.frost
	@for f in SampleImages/*.png SampleImages/*.jpg; do \
	  name=$$(basename "$$f"); cache=$(OUT)/caches/$$name.frost; \
	  $(FROST) sheet $$cache -o $(OUT)/$$name-sheet.png --columns 4 > /dev/null && \
	  $(FROST) fade $$cache --frames 12 -o $(OUT)/$$name-fade > /dev/null && \
	  $(FROST) effect "$$f" $(OUT)/$$name-light.png --preset light || exit 1; \
	  echo "wrote $$cache/ $(OUT)/$$name-sheet.png $(OUT)/$$name-fade/frame-0000…0011.png $(OUT)/$$name-light.png"; \
	done
	@$(FROST) run SampleImages/rocket.jpg $(OUT)/rocket-chain.webp blur:sigma=4 adjust:brightness=-0.1,gamma=1.2 \
	  effect:preset=light resize:width=480 --quality 85
	@echo "wrote $(OUT)/rocket-chain.webp (a chain: blur, adjust, light effect, resize in one decode and one encode)"
	@$(FROST) resize SampleImages/*.jpg SampleImages/*.png -o '$(OUT)/thumbs/%s-320.webp' --width 320 --jobs 2 2>&1 | tail -1
	@$(FROST) page $(OUT)/caches/UNIS_EV0.jpg.frost -o $(OUT)/UNIS_EV0-page.html --height 600
	@$(FROST) convert SampleImages/coffee.heic $(OUT)/coffee-from-heic.avif && $(FROST) convert SampleImages/rocket.jpg $(OUT)/rocket.avif
	@$(FROST) convert SampleImages/rocket.jpg $(OUT)/rocket.heic
	@$(FROST) info SampleImages/coffee.heic $(OUT)/coffee-from-heic.avif $(OUT)/rocket.avif $(OUT)/rocket.heic
	@for kind in blurhash thumbhash data-url; do \
	  $(FROST) placeholder SampleImages/*.jpg SampleImages/*.png --kind $$kind --json --jobs 2 > $(OUT)/placeholders-$$kind.jsonl || exit 1; \
	done
	@$(FROST) placeholder --kind thumbhash --decode "$$($(FROST) placeholder SampleImages/rocket.jpg --kind thumbhash | sed 's/^[^:]*: //')" \
	  -o $(OUT)/rocket-thumbhash.png --width 320
	@echo "wrote $(OUT)/placeholders-{blurhash,thumbhash,data-url}.jsonl $(OUT)/rocket-thumbhash.png (a ThumbHash drawn back)"
	@$(FROST) cache SampleImages/rocket.jpg -o $(OUT)/rocket-twitter --preset twitter | head -1
	@$(FROST) fade $(OUT)/rocket-twitter --offset 130 --start 100 --end 160 --mode nearest -o $(OUT)/rocket-twitter-scrolled.png
	@echo "wrote $(OUT)/rocket-twitter/ (Twitter's 11 banners) $(OUT)/rocket-twitter-scrolled.png (scrolled 30 pt)"
	@for s in SampleImages/scenes/*.json; do \
	  name=$$(basename "$$s" .json); \
	  $(FROST) compose "$$s" -o $(OUT)/$$name.png || exit 1; \
	  echo "wrote $(OUT)/$$name.png (scene $$s)"; \
	done
	@mkdir -p $(OUT)/motion
	@for s in SampleImages/motion/*.json; do \
	  name=$$(basename "$$s" .json); \
	  $(FROST) animate "$$s" -o $(OUT)/motion/$$name.png --strip $(OUT)/motion/$$name-strip.png || exit 1; \
	done
	@$(FROST) animate SampleImages/motion/appstore-press.json -o $(OUT)/motion/appstore-press.webp --quality 75
	@$(FROST) resize $(OUT)/motion/appstore-press.webp -o $(OUT)/motion/appstore-press.gif --width 390
	@$(FROST) convert $(OUT)/motion/appstore-press.gif $(OUT)/motion/appstore-press-frame-20.png --frame 20
	@$(FROST) animate SampleImages/motion/vesper-transition.json -o $(OUT)/motion/vesper-transition.gif --scale 1
	@$(FROST) info $(OUT)/motion/appstore-press.webp $(OUT)/motion/appstore-press.gif $(OUT)/motion/vesper-transition.gif
	@echo "wrote $(OUT)/motion/appstore-press.gif (the WebP animation resized, every frame) and its frame 20"

# The pictures README.md shows (docs/images/): the motion samples' filmstrips at half their scale, a
# cache's contact sheet, a scene and a chain's result.
gallery: build
	@mkdir -p $(OUT)/strips docs/images
	@for s in secret-viewer twitter-profile appstore-press appstore-tilt vesper-transition; do \
	  $(FROST) animate SampleImages/motion/$$s.json -o $(OUT)/strips/$$s --scale 0.5 --compression 9 \
	    --strip docs/images/$$s.png --strip-every $$(case $$s in secret*) echo 12;; twitter*) echo 10;; appstore-tilt) echo 12;; appstore*) echo 8;; *) echo 4;; esac) || exit 1; \
	done
	@$(FROST) cache SampleImages/UNIS_EV0.jpg -o $(OUT)/gallery-cache --levels 7 > /dev/null
	@$(FROST) sheet $(OUT)/gallery-cache -o docs/images/cache-sheet.jpg --columns 4 --cell-width 200 --quality 80
	@$(FROST) compose SampleImages/scenes/secret-post.json -o $(OUT)/gallery-scene.png
	@$(FROST) resize $(OUT)/gallery-scene.png docs/images/secret-post.jpg --width 320 --quality 85
	@$(FROST) run SampleImages/rocket.jpg docs/images/chain.jpg blur:sigma=3 adjust:brightness=-0.1,gamma=1.2 effect:preset=light \
	  resize:width=320 --quality 85

# The manual (frost.1 and a page per verb, `man -l out/man/frost.1`) from the argument parser's own
# definitions, as the completion scripts (`frost --generate-completion-script bash|zsh|fish`) are.
man: deps
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --multi-page --configuration debug
	@mkdir -p $(OUT)/man && cp .build/plugins/GenerateManual/outputs/frost/*.1 $(OUT)/man/
	@grep -q 'contain' $(OUT)/man/frost.resize.1 && grep -q 'NAME:key=value' $(OUT)/man/frost.run.1 && \
	  grep -q 'Exit status' $(OUT)/man/frost.1 && grep -q 'inputs-from' $(OUT)/man/frost.convert.1 && \
	  grep -q 'strip' $(OUT)/man/frost.convert.1 && grep -q 'background' $(OUT)/man/frost.convert.1
	@echo "wrote $(OUT)/man/ ($$(ls $(OUT)/man | wc -l) pages)"

# The library's documentation as a static site: the Frost catalog (Sources/Frost/Frost.docc: Getting
# Started and an article per area) and every module's symbols, combined (symbols that `import Frost`
# re-exports are documented on their own module's pages). Serve out/docs (`python3 -m http.server -d
# out/docs`) and open /documentation/frost.
DOC_TARGETS := Frost FrostCore FrostCodecs FrostFiles FrostEffects FrostCache FrostCrossfade FrostClients FrostCompose FrostMotion
docs: deps
	@mkdir -p $(OUT)/docs   # docc writes into it but does not make its parent (a fresh clone has no out/)
	$(SWIFT) package --allow-writing-to-directory $(OUT)/docs generate-documentation \
	  $(foreach t,$(DOC_TARGETS),--target $(t)) --enable-experimental-combined-documentation \
	  --output-path $(OUT)/docs --transform-for-static-hosting
	@test -f $(OUT)/docs/documentation/frost/index.html && test -f $(OUT)/docs/documentation/frostcore/image/index.html
	@echo "wrote $(OUT)/docs/ (documentation/frost/index.html)"

# Regression benchmarks (package-benchmark, its own package under Benchmarks/).
bench: deps
	cd Benchmarks && $(SWIFT) package $(CPU_FLAGS) --allow-writing-to-package-directory benchmark $(BENCH_ARGS)

# Peer engines for `make compare`: OpenCV, Pillow, pyvips with the current libvips (pyvips-binary), Debian's libvips CLI, ImageMagick, fpng, Skia's
# CPU raster (skia-python, for the scroll sweeps) and Pillow-SIMD built from source with AVX2 in its own venv.
compare-deps:
	@SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	dpkg-query -W -f='$${Status}' libvips-tools 2>/dev/null | grep -q "install ok installed" && \
	dpkg-query -W -f='$${Status}' imagemagick 2>/dev/null | grep -q "install ok installed" || \
	{ $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libvips-tools imagemagick zlib1g-dev libjpeg-dev; }
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q numpy opencv-python-headless pillow "pyvips[binary]" skia-python fpng-py
	@[ -x $(VENV_SIMD)/bin/python ] || python3 -m venv $(VENV_SIMD)
	$(VENV_SIMD)/bin/python -c "import PIL" 2>/dev/null || CC="cc -mavx2" $(VENV_SIMD)/bin/pip install -q --no-binary pillow-simd pillow-simd

# A server's load through the library's async door against the best `--jobs` batch of the same
# files (Benchmarks/requests.sh; ROUNDS=N).
requests: build
	cd Benchmarks && $(SWIFT) build $(RELEASE) --product frost-requests
	Benchmarks/requests.sh

# The bench cases side by side with the peers (ratios = peer / Frost); COMPARE_ARGS passes options.
compare: build compare-deps
	$(VENV)/bin/python Benchmarks/compare.py $(COMPARE_ARGS)

# frost serve against thumbor 7.8 (PyPI, its own venv) on loopback with wrk (Debian): requests per
# second and p50/p99 latency per case, distinct and repeated URLs (Benchmarks/serve_bench.py).
THUMBOR_VENV := Benchmarks/.venv-thumbor
serve-bench: build serve-build
	@command -v wrk > /dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO apt-get install -y -qq wrk; }
	@[ -x $(THUMBOR_VENV)/bin/thumbor ] || { python3 -m venv $(THUMBOR_VENV) && $(THUMBOR_VENV)/bin/pip install -q thumbor==7.8.0; }
	python3 Benchmarks/serve_bench.py Server/.build/release/frost-serve $(THUMBOR_VENV)/bin/thumbor $(FROST) $(SERVE_BENCH_ARGS)

# The issue's soak: 10 minutes at 16 clients, every response compared with the CLI's bytes, resident
# memory of the second and the last minute (Benchmarks/serve_soak.py; SOAK_ARGS=--minutes 1 for a short one).
serve-soak: build serve-build
	python3 Benchmarks/serve_soak.py $(FROST) Server/.build/release/frost-serve $(SOAK_ARGS)

# 64 clients past a short queue: only 200s and 429s (Benchmarks/serve_overload.py; OVERLOAD_ARGS).
serve-overload: serve-build
	python3 Benchmarks/serve_overload.py Server/.build/release/frost-serve $(OVERLOAD_ARGS)

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz Benchmarks/.build Examples/.build Server/.build $(OUT)
