#!/usr/bin/env python3
"""make compare: the frost bench cases side by side with peer engines, same photo, same machine, same run.

The photo is SampleImages/UNIS_EV0.jpg enlarged to SIZE x SIZE (bilinear), as RGB and as RGBA (a radial
alpha ramp). Every engine runs in-process on the decoded image held in memory: one warm-up, then RUNS timed
runs, median reported. Frost runs through `frost bench --json`; OpenCV, Pillow and pyvips in this process;
Pillow-SIMD in its own venv (`--worker pillow-simd`); ImageMagick through its own `-bench`, which times the
operation without decoding. Ratios are peer median / Frost median: above 1 means Frost is faster.

This machine's speed drifts from minute to minute, so engines are timed case by case, each case on every
engine back to back (Frost first in odd rounds, last in even ones), and `--rounds K` repeats that: a time is
the median over rounds, a ratio the median of the rounds' own ratios (each from minutes apart at most).
"""
import argparse, io, json, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = ["copy", "gauss-s2", "gauss-s4", "gauss-s20", "gauss-s40", "gauss-s200", "box-r40", "brightness", "adjust", "blend", "cache-10",
         "resize-1170", "resize-1170-box", "resize-1170-linear", "resize-1170-lanczos3", "png-write",
         "icc-p3-to-srgb", "icc-p3-to-srgb-lcms2", "icc-cmyk-to-srgb", "gauss-s20-linear", "resize-1170-linear-light"]
# Linear light (`*-linear`, `*-linear-light`): as each engine's users ask for it: libvips through
# scRGB (float linear light, what vipsthumbnail --linear does), ImageMagick with -colorspace RGB
# around the operation; Pillow and OpenCV have no linear-light mode.
# Colour (`icc-*`): the photo's values read as Display P3 (Frost's built-in profile, the same bytes for
# every engine) or its bytes as CMYK samples under Ghostscript's SWOP profile, converted to sRGB,
# relative colorimetric, by each engine's lcms2 call: Pillow's ImageCms.applyTransform (a transform
# built once), libvips's icc_transform.
CMYK_PROFILE = "/usr/share/color/icc/ghostscript/default_cmyk.icc"


def p3_profile():
    """Frost's built-in Display P3 profile, as `frost convert --colorspace p3` writes it."""
    path = os.path.join(ROOT, "out", "compare", "p3.icc")
    if not os.path.exists(path):
        from PIL import Image
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tiny = os.path.join(os.path.dirname(path), "p3-tiny.png")
        subprocess.run([os.path.join(ROOT, ".build", "release", "frost"), "convert", os.path.join(ROOT, "SampleImages", "rocket.jpg"),
                        tiny, "--colorspace", "p3"], check=True, capture_output=True)
        with open(path, "wb") as f:
            f.write(Image.open(tiny).info["icc_profile"])
    return path
# The seed apps' scroll sweeps (SampleImages/motion, 1170x2532), one thread, ms per frame: Frost against
# Skia's CPU raster drawing the same scene files (skia_scenes.py).
MOTION_CASES = ["scroll-secret", "scroll-twitter", "scroll-twitter-blend"]
MOTION_SCENES = {"scroll-secret": "secret-viewer.json", "scroll-twitter": "twitter-profile.json",
                 "scroll-twitter-blend": "twitter-profile-blend.json"}
# Whole commands (`--case cmd-…`): a 4096² JPEG in, a JPEG (quality 90) out, each tool's own command line
# with its default threads, timed as processes (decode, work, encode, start-up). vips: its CLI (a chain
# through .v files, its native format); ImageMagick: Debian's convert (6.9, Q16). "libvips 8.18": the
# libvips users install today (PyPI's pyvips-binary), called in this process (its start-up not counted),
# each command as one sequential pipeline from file to file, the resize as its thumbnail (shrink on load).
def pyvips_command(case):
    def run(i, o):
        # Imported when run: the Pillow-SIMD worker's venv has no pyvips.
        import pyvips
        pyvips.cache_set_max(0)

        def load(path):
            return pyvips.Image.new_from_file(path, access="sequential")
        ops = {"cmd-blur-s20": lambda i: load(i).gaussblur(20),
               "cmd-resize-1170": lambda i: pyvips.Image.thumbnail(i, 1170),
               "cmd-adjust": lambda i: load(i).linear(1.2, 5.1, uchar=True),
               # As a vips user chains them: thumbnail_image cannot shrink on load and is the slow path.
               "cmd-chain": lambda i: resized(load(i).gaussblur(4).linear(1, 25.5, uchar=True), 1170)}

        def resized(image, width):
            return image.resize(width / image.width)
        ops[case](i).write_to_file(o, Q=90)
    return run


COMMAND_CASES = {
    "cmd-blur-s20": {"Frost": ["{frost}", "blur", "{in}", "{out}", "--sigma", "20"],
                     "libvips": [["vips", "gaussblur", "{in}", "{out}[Q=90]", "20"]],
                     "ImageMagick": ["/usr/bin/convert", "{in}", "-blur", "0x20", "-quality", "90", "{out}"]},
    "cmd-resize-1170": {"Frost": ["{frost}", "resize", "{in}", "{out}", "--width", "1170"],
                        "libvips": [["vips", "resize", "{in}", "{out}[Q=90]", "0.28564453125"]],
                        "ImageMagick": ["/usr/bin/convert", "{in}", "-resize", "1170x", "-quality", "90", "{out}"]},
    "cmd-adjust": {"Frost": ["{frost}", "adjust", "{in}", "{out}", "--brightness", "0.1", "--contrast", "1.2"],
                   "libvips": [["vips", "linear", "{in}", "{out}[Q=90]", "1.2", "0.5"]],
                   "ImageMagick": ["/usr/bin/convert", "{in}", "-brightness-contrast", "10x20", "-quality", "90", "{out}"]},
    "cmd-chain": {"Frost": ["{frost}", "run", "{in}", "{out}", "blur:sigma=4", "adjust:brightness=0.1", "resize:width=1170"],
                  "libvips": [["vips", "gaussblur", "{in}", "{tmp}1.v", "4"], ["vips", "linear", "{tmp}1.v", "{tmp}2.v", "1", "25.5"],
                              ["vips", "resize", "{tmp}2.v", "{out}[Q=90]", "0.28564453125"]],
                  "ImageMagick": ["/usr/bin/convert", "{in}", "-blur", "0x4", "-evaluate", "add", "10%", "-resize", "1170x",
                                  "-quality", "90", "{out}"]},
}


for case in COMMAND_CASES:
    COMMAND_CASES[case]["libvips 8.18"] = pyvips_command(case)


def command_ms(commands, runs):
    """Median wall time of `commands` run one after another as processes (one warm-up run first)."""
    def once():
        for c in commands:
            subprocess.run(c, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return median_ms(once, runs)


def command_rows(frost, jpeg, cases, rounds, runs):
    folder = os.path.dirname(jpeg)
    names = list(COMMAND_CASES[cases[0]])
    times = {name: {case: [] for case in cases} for name in names}
    for round in range(rounds):
        for case in cases:
            for name in (names if round % 2 == 0 else names[::-1]):
                spec = COMMAND_CASES[case][name]
                if callable(spec):
                    out = os.path.join(folder, f"cmd-pyvips.jpg")
                    times[name][case].append(median_ms(lambda: spec(jpeg, out), runs))
                    continue
                commands = spec if isinstance(spec[0], list) else [spec]
                fill = {"frost": frost, "in": jpeg, "out": os.path.join(folder, f"cmd-{name}.jpg"),
                        "tmp": os.path.join(folder, f"cmd-{name}-")}
                commands = [[a.format(**fill) for a in c] for c in commands]
                times[name][case].append(command_ms(commands, runs))
    print_table(f"whole commands, {os.path.basename(jpeg)} in, JPEG q90 out, default threads, ms per process", cases, times)


# blend: 0.63 * photo + 0.37 * (its sigma-8 blur, made beforehand), as frost bench's blend case.
# The default cache plan's levels (frost cache: 10 levels, ratio 1.5 down from sigma 40, the first
# level under sigma 8 raised onto 8; CachePlan.geometricSigmas). Peers render them as ten independent
# blurs; Frost's cache-10 renders the same ten levels from each other.
def cache_sigmas(count=10, top=40.0, ratio=1.5, threshold=8.0):
    sigmas, sigma = [], top
    for _ in range(count):
        sigmas.append(sigma)
        sigma = threshold if sigma > threshold > sigma / ratio else sigma / ratio
    return sigmas[::-1]


CACHE_SIGMAS = cache_sigmas()


SLOW_MS = 5000


def median_ms(fn, runs):
    t = time.perf_counter()
    fn()
    first = (time.perf_counter() - t) * 1000
    if first > SLOW_MS:
        return -first  # negative marks a single run: an O(σ) peer at large σ would take minutes per case
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


# The cases a worker times (all when None): peers then skip what was not asked for, such as
# OpenCV's O(sigma) blur at sigma 200.
SELECTED = None


def timed(ops, runs):
    return {name: median_ms(fn, runs) for name, fn in ops.items() if SELECTED is None or name in SELECTED}


def make_photos(size, folder):
    from PIL import Image
    import numpy as np
    os.makedirs(folder, exist_ok=True)
    rgb_path, rgba_path = os.path.join(folder, f"photo{size}.png"), os.path.join(folder, f"photo{size}-rgba.png")
    if not (os.path.exists(rgb_path) and os.path.exists(rgba_path)):
        im = Image.open(os.path.join(ROOT, "SampleImages", "UNIS_EV0.jpg")).convert("RGB").resize((size, size), Image.BILINEAR)
        im.save(rgb_path, compress_level=1)
        y, x = np.mgrid[0:size, 0:size]
        r = np.hypot(x - size / 2, y - size / 2) / (size / 2)
        alpha = Image.fromarray(np.clip(255 * (1.2 - r), 0, 255).astype(np.uint8))
        rgba = im.copy()
        rgba.putalpha(alpha)
        rgba.save(rgba_path, compress_level=1)
    return {"RGB": rgb_path, "RGBA": rgba_path}


def opencv_cases(path, threads, runs):
    import cv2
    cv2.setNumThreads(threads)
    a = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    rep = cv2.BORDER_REPLICATE
    ops = {
        "copy": lambda: a.copy(),
        "box-r40": lambda: cv2.blur(a, (81, 81), borderType=rep),
        "brightness": lambda: cv2.add(a, (25, 25, 25, 0)),
    }
    b = cv2.GaussianBlur(a, (0, 0), sigmaX=8, borderType=rep)
    ops["blend"] = lambda: cv2.addWeighted(a, 0.63, b, 0.37, 0)
    for s in (2, 4, 20, 40, 200):
        ops[f"gauss-s{s}"] = (lambda s=s: cv2.GaussianBlur(a, (0, 0), sigmaX=s, borderType=rep))
    ops["cache-10"] = lambda: [cv2.GaussianBlur(a, (0, 0), sigmaX=s, borderType=rep) for s in CACHE_SIGMAS]
    # INTER_AREA is the area average (OpenCV has no stretched linear or lanczos filter).
    ops["resize-1170-box"] = lambda: cv2.resize(a, (1170, 1170), interpolation=cv2.INTER_AREA)
    ops["png-write"] = lambda: cv2.imencode(".png", a, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return timed(ops, runs), f"OpenCV {cv2.__version__}"


def pillow_cases(path, runs, label):
    import PIL
    from PIL import Image, ImageFilter, ImageEnhance
    im = Image.open(path)
    im.load()
    ops = {
        "copy": lambda: im.copy(),
        "box-r40": lambda: im.filter(ImageFilter.BoxBlur(40)),
        "brightness": lambda: ImageEnhance.Brightness(im).enhance(1.1),
    }
    blurred = im.filter(ImageFilter.GaussianBlur(8))
    ops["blend"] = lambda: Image.blend(im, blurred, 0.37)
    for s in (2, 4, 20, 40, 200):
        ops[f"gauss-s{s}"] = (lambda s=s: im.filter(ImageFilter.GaussianBlur(s)))
    ops["cache-10"] = lambda: [im.filter(ImageFilter.GaussianBlur(s)) for s in CACHE_SIGMAS]
    # Pillow stretches each filter by the shrink factor, as Frost does; its BOX samples the box at
    # pixel centers where Frost's weighs partly covered pixels (a tap more).
    for name, f in (("box", Image.BOX), ("linear", Image.BILINEAR), ("lanczos3", Image.LANCZOS)):
        ops[f"resize-1170-{name}"] = (lambda f=f: im.resize((1170, 1170), f))
    ops["resize-1170"] = ops["resize-1170-lanczos3"]
    ops["png-write"] = lambda: im.save(io.BytesIO(), "PNG", compress_level=1)
    try:
        from PIL import ImageCms   # Pillow-SIMD builds without lcms2: its colour rows stay empty
    except ImportError:
        return timed(ops, runs), f"{label} {PIL.__version__}"
    srgb = ImageCms.createProfile("sRGB")
    if SELECTED is None or "icc-p3-to-srgb" in SELECTED:
        p3 = ImageCms.buildTransform(ImageCms.getOpenProfile(p3_profile()), srgb, im.mode, im.mode, renderingIntent=1)
        ops["icc-p3-to-srgb"] = lambda: ImageCms.applyTransform(im, p3)
    if os.path.exists(CMYK_PROFILE) and (SELECTED is None or "icc-cmyk-to-srgb" in SELECTED):
        cmyk = Image.frombytes("CMYK", im.size, im.convert("RGBA").tobytes())
        to_srgb = ImageCms.buildTransform(ImageCms.getOpenProfile(CMYK_PROFILE), srgb, "CMYK", "RGB", renderingIntent=1)
        ops["icc-cmyk-to-srgb"] = lambda: ImageCms.applyTransform(cmyk, to_srgb)
    return timed(ops, runs), f"{label} {PIL.__version__}"


def fpng_cases(path, runs):
    """fpng (Rich Geldreich's fast PNG writer, PyPI's fpng-py) on the photo's pixels, its default settings."""
    import fpng_py
    from PIL import Image
    im = Image.open(path)
    channels = len(im.getbands())
    data = im.tobytes()
    ops = {"png-write": lambda: fpng_py.fpng_encode_image_to_memory(data, im.width, im.height, channels, 0)}
    return timed(ops, runs), "fpng (fpng-py)"


def vips_cases(path, threads, runs):
    os.environ["VIPS_CONCURRENCY"] = str(threads)
    import pyvips
    pyvips.cache_set_max(0)
    im = pyvips.Image.new_from_file(path, access="sequential").copy_memory()
    def run(op):
        return lambda: op(im).copy_memory()
    ops = {"copy": run(lambda i: i.copy()), "brightness": run(lambda i: (i * 1.0 + 25).cast("uchar"))}
    blurred = im.gaussblur(8).copy_memory()
    ops["blend"] = run(lambda i: (i * 0.63 + blurred * 0.37).cast("uchar"))
    for s in (2, 4, 20, 40, 200):
        ops[f"gauss-s{s}"] = run(lambda i, s=s: i.gaussblur(s))
    ops["cache-10"] = lambda: [i.gaussblur(s).copy_memory() for i in [im] for s in CACHE_SIGMAS]
    for kernel in ("linear", "lanczos3"):
        ops[f"resize-1170-{kernel}"] = run(lambda i, k=kernel: i.resize(1170 / i.width, kernel=k))
    ops["resize-1170"] = ops["resize-1170-lanczos3"]
    ops["gauss-s20-linear"] = run(lambda i: i.colourspace("scrgb").gaussblur(20).colourspace("srgb"))
    ops["resize-1170-linear-light"] = run(lambda i: i.colourspace("scrgb").resize(1170 / i.width, kernel="lanczos3").colourspace("srgb"))
    if SELECTED is None or "icc-p3-to-srgb" in SELECTED:
        p3 = p3_profile()
        ops["icc-p3-to-srgb"] = run(lambda i: i.icc_transform("srgb", input_profile=p3, embedded=False, intent="relative"))
    return timed(ops, runs), f"libvips {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"


def imagemagick_cases(path, threads, runs):
    exe = "/usr/bin/convert"
    if not os.path.exists(exe):
        return {}, None
    version = subprocess.run([exe, "-version"], capture_output=True, text=True).stdout.split("\n")[0]
    if "ImageMagick" not in version:
        return {}, None
    # -bench N repeats the operation N times per thread count and prints
    # "Performance[T]: Ni X.XXXips ..." (T threads, X iterations per second). Debian's policy.xml caps
    # ImageMagick at 256 MiB, so a 4096² Q16 image may spill to its disk cache: that is the stock setup.
    results = {}
    for case, args in [("gauss-s2", ["-gaussian-blur", "0x2"]), ("gauss-s20", ["-blur", "0x20"]),
                       ("gauss-s20-linear", ["-colorspace", "RGB", "-blur", "0x20", "-colorspace", "sRGB"]),
                       ("resize-1170-linear-light", ["-colorspace", "RGB", "-filter", "Lanczos", "-resize", "1170x1170",
                                                     "-colorspace", "sRGB"])]:
        if SELECTED is not None and case not in SELECTED:
            continue
        out = subprocess.run([exe, path, "-limit", "thread", str(threads), "-bench", str(runs)] + args + ["null:"],
                             capture_output=True, text=True)
        for line in (out.stdout + out.stderr).splitlines():
            if line.strip().startswith(f"Performance[{threads}]:"):
                ips = float(line.split("ips")[0].split()[-1])
                results[case] = 1000 / ips
    return results, version.replace("Version: ", "").split(" https")[0]


def skia_cases(runs):
    """Median ms per frame over every frame of `runs` sweeps, after one sweep to warm up; `CASE mean` the mean."""
    import skia
    sys.path.insert(0, HERE)
    import skia_scenes
    results = {}
    for case in MOTION_CASES:
        if SELECTED is not None and case not in SELECTED:
            continue
        drawer = skia_scenes.prepare(os.path.join(ROOT, "SampleImages", "motion", MOTION_SCENES[case]))
        for y in drawer.offsets:
            drawer.frame(y)
        times = []
        for _ in range(runs):
            for y in drawer.offsets:
                t = time.perf_counter()
                drawer.frame(y)
                times.append((time.perf_counter() - t) * 1000)
        results[case] = statistics.median(times)
        results[case + " mean"] = statistics.mean(times)
    return results, f"Skia (skia-python {skia.__version__})"


def worker(engine, path, threads, runs):
    if engine == "skia":
        return skia_cases(runs)
    if engine == "opencv":
        return opencv_cases(path, threads, runs)
    if engine == "pillow":
        return pillow_cases(path, runs, "Pillow")
    if engine == "pillow-simd":
        return pillow_cases(path, runs, "Pillow-SIMD")
    if engine == "vips":
        return vips_cases(path, threads, runs)
    if engine == "fpng":
        return fpng_cases(path, runs)
    if engine == "imagemagick":
        return imagemagick_cases(path, threads, runs)
    raise SystemExit(f"unknown engine {engine}")


def run_worker(python, engine, path, threads, runs, cases):
    """Each engine in its own process, so thread settings and allocators do not leak between engines."""
    if not os.path.exists(python):
        return {}, None
    out = subprocess.run([python, __file__, "--worker", engine, "--path", path, "--threads", str(threads), "--runs", str(runs)]
                         + [arg for c in cases for arg in ("--case", c)], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"  ({engine} unavailable: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'failed'})", file=sys.stderr)
        return {}, None
    data = json.loads(out.stdout)
    return data["results"], data["version"]


def frost_cases(frost, path, threads, runs, cases):
    # The scroll cases render their own scenes: a tiny image stands in for the photo they do not use.
    args = [frost, "bench"] + (["--image", path] if path else ["--size", "16x16"]) + ["--threads", str(threads), "--runs", str(runs), "--json"]
    for c in cases:
        args += ["--case", c]
    out = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT)
    results = {}
    for line in out.stdout.splitlines():
        row = json.loads(line)
        results[row["case"]] = row["median_ms"]
        if row["case"] in MOTION_CASES:
            results[row["case"] + " mean"] = row["mean_ms"]
    return results


def print_table(title, cases, times):
    """Medians over rounds; a peer's ratio is the median of its rounds' ratios to Frost's time in the same
    round, and so is Frost's own ratio to its copy floor (`x copy`, when copy is among the cases: the
    issue's color-control target). A negative time marks a single run (SLOW_MS). With several rounds the
    lowest and highest round ratios follow the table: on a noisy machine a median alone hides whether a
    target is met in every round or in half of them."""
    frost = times["Frost"]
    peers = [name for name in times if name != "Frost" and any(times[name].values())]
    floor = frost.get("copy", [])

    def round_ratios(numerators, denominators):
        if not numerators or len(numerators) != len(denominators):
            return []
        return [abs(n) / d for n, d in zip(numerators, denominators)]

    print(f"\n{title}")
    width = max(12, max(len(c) for c in cases) + 1)
    print(f"{'case':<{width}}{'Frost':>9}{'x copy':>8}" + "".join(f"{n:>22}" for n in peers))
    spreads = []
    for case in cases:
        mine = frost[case]
        row = f"{case:<{width}}{statistics.median(mine) if mine else float('nan'):>9.1f}"
        of_copy = round_ratios(mine, floor)
        row += f"{statistics.median(of_copy):>7.2f}x" if of_copy and case != "copy" else f"{'':>8}"
        if len(of_copy) > 1 and case != "copy":
            spreads.append(f"{case:<12} Frost/copy {min(of_copy):.2f}-{max(of_copy):.2f}x")
        for name in peers:
            theirs = times[name][case]
            ratios = round_ratios(theirs, mine)
            if not ratios:
                row += f"{'—':>22}"
                continue
            mark = "*" if min(theirs) < 0 else " "
            row += f"{statistics.median(abs(t) for t in theirs):>10.1f}{mark}({statistics.median(ratios):>6.2f}x)".rjust(22)
            if len(ratios) > 1:
                spreads.append(f"{case:<12} {name} {min(ratios):.2f}-{max(ratios):.2f}x")
        print(row)
    if spreads:
        print("round ratios, lowest-highest:")
        for line in spreads:
            print(f"  {line}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--frost", default=os.path.join(ROOT, ".build", "release", "frost"))
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--rounds", type=int, default=1, help="times each case runs on every engine (medians over them)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--case", action="append", dest="cases")
    p.add_argument("--engine", action="append", dest="engines", help="peers to run (default: all)")
    p.add_argument("--kind", action="append", dest="kinds", help="RGB and/or RGBA (default: both)")
    p.add_argument("--worker"), p.add_argument("--path")
    args = p.parse_args()
    if args.worker:
        global SELECTED
        SELECTED = set(args.cases) if args.cases else None
        results, version = worker(args.worker, args.path, int(args.threads), args.runs)
        print(json.dumps({"results": results, "version": version}))
        return
    motion_cases = [c for c in (args.cases or CASES + MOTION_CASES) if c in MOTION_CASES]
    command_cases = [c for c in (args.cases or CASES + list(COMMAND_CASES)) if c in COMMAND_CASES]
    cases = [c for c in (args.cases or CASES) if c not in MOTION_CASES and c not in COMMAND_CASES]
    photos = make_photos(args.size, os.path.join(ROOT, "out", "compare")) if cases or command_cases else {}
    venv = os.path.join(HERE, ".venv", "bin", "python")
    simd = os.path.join(HERE, ".venv-simd", "bin", "python")
    engines = [("OpenCV", venv, "opencv"), ("Pillow", venv, "pillow"), ("Pillow-SIMD", simd, "pillow-simd"),
               ("libvips", venv, "vips"), ("ImageMagick", venv, "imagemagick"), ("fpng", venv, "fpng")]
    engines = [e for e in engines if not args.engines or e[0] in args.engines or e[2] in args.engines]
    photos = {kind: path for kind, path in photos.items() if not args.kinds or kind in args.kinds}
    versions, unavailable = {}, set()
    print(f"{args.size}x{args.size} photo (SampleImages/UNIS_EV0.jpg enlarged), median of {args.runs} runs, ms, "
          f"{args.rounds} round{'s' if args.rounds > 1 else ''}; ratio = peer / Frost")
    for kind, path in (photos.items() if cases else []):
        for threads in [int(t) for t in args.threads.split(",")]:
            # Pillow filters and fpng are single-threaded.
            peers = [e for e in engines if threads == 1 or not (e[0].startswith("Pillow") or e[0] == "fpng")]
            times = {name: {case: [] for case in cases} for name in ["Frost"] + [e[0] for e in peers]}
            for round in range(args.rounds):
                for case in cases:
                    order = [("Frost", None, None)] + peers
                    for name, python, engine in (order if round % 2 == 0 else order[::-1]):
                        if name in unavailable:
                            continue
                        if name == "Frost":
                            results = frost_cases(args.frost, path, threads, args.runs, [case])
                        else:
                            results, version = run_worker(python, engine, path, threads, args.runs, [case])
                            if version is None:
                                unavailable.add(name)
                            versions[name] = version
                        if case in results:
                            times[name][case].append(results[case])
            print_table(f"{kind}, {threads} thread{'s' if threads > 1 else ''}", cases, times)
    if command_cases:
        from PIL import Image
        jpeg = photos["RGB"][:-4] + ".jpg"
        if not os.path.exists(jpeg):
            Image.open(photos["RGB"]).save(jpeg, quality=90)
        command_rows(args.frost, jpeg, command_cases, args.rounds, args.runs)
    if motion_cases and (not args.engines or "skia" in args.engines or "Skia" in args.engines):
        rows = [r for c in motion_cases for r in (c, c + " mean")]
        times = {"Frost": {r: [] for r in rows}, "Skia": {r: [] for r in rows}}
        for round in range(args.rounds):
            for case in motion_cases:
                for name in (["Frost", "Skia"] if round % 2 == 0 else ["Skia", "Frost"]):
                    if name == "Frost":
                        results = frost_cases(args.frost, None, 1, args.runs, [case])
                    else:
                        results, versions["Skia"] = run_worker(venv, "skia", "", 1, args.runs, [case])
                    for row in (case, case + " mean"):
                        if row in results:
                            times[name][row].append(results[row])
        print_table("scroll sweeps, 1170x2532, 1 thread, ms per frame: median over the sweep's frames, and their mean", rows, times)
    print(f"\n* one run only: the warm-up took over {SLOW_MS / 1000:.0f} s")
    print("versions: " + "; ".join(f"{k}: {v}" for k, v in versions.items()))
    print("peer cases: gauss = cv2.GaussianBlur(sigma, BORDER_REPLICATE) / ImageFilter.GaussianBlur(sigma) / vips gaussblur(sigma)"
          " / convert -gaussian-blur 0xS (s2) or -blur 0xS (s20); box = cv2.blur 81x81 / ImageFilter.BoxBlur(40);"
          " brightness = cv2.add / ImageEnhance.Brightness / vips linear (Frost: brightness 0.1); adjust: Frost only (brightness 0.1, contrast 1.2, saturation 1.3); blend = cv2.addWeighted / Image.blend / vips linear mix;"
          " copy = numpy copy / Image.copy / vips copy;"
          " cmd-* = whole processes (COMMAND_CASES): blur = vips gaussblur / convert -blur 0x20; resize = vips resize 0.2856 /"
          " convert -resize 1170x; adjust = vips linear 1.2 0.5 / convert -brightness-contrast 10x20; chain = blur 4, brightness"
          " +0.1, resize 1170 (vips: three commands through .v files; convert: one);"
          " png-write = the photo as PNG (cv2.imencode level 1 / Pillow compress_level=1 / fpng; Frost: its default, run-length"
          " deflate over Paeth residuals);"
          " resize-1170-K = 4096² to 1170², each filter stretched by the shrink (box: cv2 INTER_AREA / Pillow BOX; linear: Pillow"
          " BILINEAR / vips resize kernel=linear; lanczos3: Pillow LANCZOS / vips kernel=lanczos3); resize-1170 = Frost's default, lanczos3;"
          " cache-10 = ten independent gaussian blurs at the default plan's sigmas (1.05 ... 40);"
          " scroll-* = every frame of SampleImages/motion's secret-viewer and twitter-profile sweeps, Skia drawing every layer every"
          " frame (Secret's snapshot blurred once, Twitter's banner blurred live at the level's sigma), Frost with retained rasters and blur caches")


if __name__ == "__main__":
    main()
