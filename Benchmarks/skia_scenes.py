"""The seed apps' scroll sweeps (SampleImages/motion) drawn by Skia's CPU raster through skia-python, for
`make compare`: the same scene files, the same keyframes, the same frames, drawn the way a general 2D engine
draws them: every layer every frame (no retained rasters). Secret's blurred snapshot is blurred once, as the
app did, and faded over the photo; Twitter's banner is blurred live at the sigma of the level the scroll
selects (what the app avoided by pre-rendering). Images are decoded and fonts loaded beforehand.

Supported: the layer kinds and keys these two scenes use (color, image, text, group; frame, opacity,
cornerRadius, border, transform, shadow, gradient mask; animate with linear and step keys; blur presets)."""
import json, math, os
import skia

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PALETTE = {"white": (255, 255, 255, 255), "black": (0, 0, 0, 255), "clear": (0, 0, 0, 0),
           "emerald-sea": (18, 133, 116, 255), "hopscotch": (157, 105, 183, 255), "lavender": (100, 57, 144, 255),
           "burst": (213, 100, 12, 255), "cupid": (157, 30, 38, 255), "peony": (220, 72, 99, 255),
           "midnight": (39, 36, 32, 255), "default": (255, 255, 255, 255)}


def color(text):
    text = text.strip().lower()
    if text in PALETTE:
        return PALETTE[text]
    if text.startswith("#"):
        h = text[1:]
        v = [int(h[i:i + 2], 16) for i in range(0, len(h), 2)]
        return tuple(v + [255] * (4 - len(v)))
    w, a = text[6:].split("@")   # white:W@A
    return (round(float(w) * 255),) * 3 + (round(float(a) * 255),)


def value(anim, d):
    keys = anim["keys"]
    if d <= keys[0][0]:
        return keys[0][1]
    if d >= keys[-1][0]:
        return keys[-1][1]
    i = max(j for j in range(len(keys)) if keys[j][0] <= d)
    a, b = keys[i], keys[i + 1]
    ease = a[2] if len(a) > 2 else anim.get("ease", "linear")
    u = (d - a[0]) / (b[0] - a[0])
    if ease == "step":
        u = 0
    elif ease != "linear":
        raise SystemExit(f"skia_scenes: ease {ease} is not supported here")
    if isinstance(a[1], list):
        return [x + (y - x) * u for x, y in zip(a[1], b[1])]
    return a[1] + (b[1] - a[1]) * u


def resolved(layer, y, parent):
    """The layer's keys at scroll offset y (these scenes are scroll-driven only)."""
    out = dict(layer)
    out["frame"] = list(layer.get("frame", [0, 0, parent[0], parent[1]]))
    out["transform"] = dict(layer.get("transform", {}))
    for prop, anim in layer.get("animate", {}).items():
        v = value(anim, y)
        if prop == "frame":
            out["frame"] = list(v)
        elif prop.startswith("frame."):
            out["frame"]["xywh".index(prop[6]) if prop != "frame.width" and prop != "frame.height" else (2 if prop == "frame.width" else 3)] = v
        elif prop == "opacity":
            out["opacity"] = v
        elif prop == "transform.scale":
            out["transform"]["scale"] = v
        elif prop == "transform.translate":
            out["transform"]["translate"] = v
        elif prop == "blur.progress":
            out["progress"] = v
    return out


def wrap(text, font, width):
    lines, line = [], ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if font.measureText(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    return lines + [line]


def imageeffects_sigma(radius, scale):
    d = math.floor(radius * scale * 3 * math.sqrt(2 * math.pi) / 4 + 0.5)
    d += 1 if d % 2 == 0 else 0
    return math.sqrt((d * d - 1) / 4) if radius > 0 else 0


def saturation_filter(s):
    lr, lg, lb = 0.2126, 0.7152, 0.0722
    m = [lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0, 0,
         lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0, 0,
         lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0, 0,
         0, 0, 0, 1, 0]
    return skia.ColorFilters.Matrix(m)


class SceneDrawer:
    def __init__(self, path):
        self.folder = os.path.dirname(path)
        self.scene = json.load(open(path))
        self.scale = self.scene["scale"]
        self.images, self.fonts, self.snapshots = {}, {}, {}
        self.typeface = skia.Typeface.MakeFromFile(FONT)
        self._load(self.scene["layers"])
        t = self.scene["timeline"]
        n = t["frames"]
        self.offsets = [t["from"] + (t["to"] - t["from"]) * k / (n - 1) for k in range(n)]
        self.width, self.height = round(self.scene["width"] * self.scale), round(self.scene["height"] * self.scale)
        self.surface = skia.Surface(self.width, self.height)

    def _load(self, layers):
        for layer in layers:
            if layer["type"] == "image" and layer["file"] not in self.images:
                self.images[layer["file"]] = skia.Image.open(os.path.join(self.folder, layer["file"])).makeRasterImage()
            if layer["type"] == "group":
                self._load(layer["layers"])
            if layer.get("blur", {}).get("preset") == "secret":
                # Secret blurred its snapshot once: the group drawn offscreen, blurred, tinted, saturated.
                w, h = round(layer["frame"][2] * self.scale), round(layer["frame"][3] * self.scale)
                surface = skia.Surface(w, h)
                c = surface.getCanvas()
                c.scale(self.scale, self.scale)
                self.draw_layers(c, layer["layers"], 0, (layer["frame"][2], layer["frame"][3]))
                sharp = surface.makeImageSnapshot()
                blurred = skia.Surface(w, h)
                bc = blurred.getCanvas()
                sigma = imageeffects_sigma(12, self.scale)
                bc.drawImage(sharp, 0, 0, skia.SamplingOptions(), skia.Paint(
                    ImageFilter=skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kClamp),
                    ColorFilter=saturation_filter(1.8)))
                bc.drawColor(skia.Color(204, 204, 204, 102))
                self.snapshots[id(layer)] = blurred.makeImageSnapshot()

    def font(self, size):
        if size not in self.fonts:
            self.fonts[size] = skia.Font(self.typeface, size)
        return self.fonts[size]

    def frame(self, y):
        c = self.surface.getCanvas()
        c.resetMatrix()
        c.clear(skia.Color(*color(self.scene.get("background", "clear"))))
        c.scale(self.scale, self.scale)
        self.draw_layers(c, self.scene["layers"], y, (self.scene["width"], self.scene["height"]))
        self.surface.flushAndSubmit()

    def draw_layers(self, c, layers, y, parent):
        for layer in layers:
            self.draw(c, resolved(layer, y, parent), y)

    def draw(self, c, L, y):
        x0, y0, w, h = L["frame"]
        opacity = L.get("opacity", 1)
        if opacity <= 0 or w <= 0 or h <= 0:
            return
        rect = skia.Rect.MakeXYWH(x0, y0, w, h)
        c.save()
        t = L["transform"]
        tx, ty = t.get("translate", [0, 0])
        s = t.get("scale", 1)
        c.translate(x0 + w / 2 + tx, y0 + h / 2 + ty)
        c.scale(s, s)
        c.translate(-(x0 + w / 2), -(y0 + h / 2))
        shadow = L.get("shadow")
        paint = skia.Paint(Alphaf=opacity)
        if shadow:
            sc = color(shadow.get("color", "black"))
            sigma = shadow.get("radius", 3) / 2
            dx, dy = shadow.get("offset", [0, 0])
            paint.setImageFilter(skia.ImageFilters.DropShadow(dx, dy, sigma, sigma, skia.Color(sc[0], sc[1], sc[2], round(sc[3] * shadow.get("opacity", 1)))))
        layered = opacity < 1 or shadow or L["type"] == "group" or "mask" in L
        if layered:
            # Bounded layers (a shadow's reaches 3 sigma and its offset further): an unbounded one
            # would cover the whole canvas.
            reach = 3 * shadow.get("radius", 3) / 2 + max(map(abs, shadow.get("offset", [0, 0]))) if shadow else 0
            c.saveLayer(rect.makeOutset(reach, reach), paint)
        radius = L.get("cornerRadius", 0)
        if radius > 0:
            c.clipRRect(skia.RRect.MakeRectXY(rect, radius, radius), True)
        else:
            c.clipRect(rect, True)
        kind = L["type"]
        if kind == "color":
            c.drawRect(rect, skia.Paint(Color=skia.Color(*color(L["color"])), AntiAlias=True))
        elif kind == "image":
            self.draw_image(c, L, rect)
        elif kind == "text":
            font = self.font(L.get("size", 17))
            tc = color(L.get("color", "black"))
            tp = skia.Paint(Color=skia.Color(*tc), AntiAlias=True)
            lines = wrap(L["text"], font, w)
            line_height = font.getSpacing()
            ascent = -font.getMetrics().fAscent
            for i, line in enumerate(lines):
                lw = font.measureText(line)
                lx = x0 + {"left": 0, "center": (w - lw) / 2, "right": w - lw}[L.get("align", "left")]
                c.drawString(line, lx, y0 + ascent + i * line_height, font, tp)
        elif kind == "group":
            c.translate(x0, y0)
            snapshot = self.snapshots.get(self._snapshot_key(L))
            if snapshot is not None:
                c.drawImageRect(snapshot, skia.Rect.MakeWH(w, h), skia.SamplingOptions(skia.FilterMode.kLinear))
            else:
                self.draw_layers(c, L["layers"], y, (w, h))
            c.translate(-x0, -y0)
        if "mask" in L:
            g = L["mask"]["gradient"]
            pts = [skia.Point(x0 + g["start"][0] * w, y0 + g["start"][1] * h), skia.Point(x0 + g["end"][0] * w, y0 + g["end"][1] * h)]
            stops = g["stops"]
            shader = skia.GradientShader.MakeLinear(pts, [skia.Color(*color(st["color"])) for st in stops], [st["at"] for st in stops])
            area = rect
            if g["start"][0] == g["end"][0] and g["start"][1] == 0 and color(stops[-1]["color"])[3] == 255:
                # A vertical fade that ends opaque: below its last stop DstIn changes nothing.
                area = skia.Rect.MakeXYWH(x0, y0, w, h * g["end"][1] * stops[-1]["at"])
            c.drawRect(area, skia.Paint(Shader=shader, BlendMode=skia.BlendMode.kDstIn))
        border = L.get("border")
        if border:
            bw = border["width"]
            c.drawRRect(skia.RRect.MakeRectXY(rect.makeInset(bw / 2, bw / 2), max(0, radius - bw / 2), max(0, radius - bw / 2)),
                        skia.Paint(Color=skia.Color(*color(border.get("color", "black"))), Style=skia.Paint.kStroke_Style,
                                   StrokeWidth=bw, AntiAlias=True))
        if layered:
            c.restore()
        c.restore()

    def _snapshot_key(self, L):
        return L.get("_id")

    def draw_image(self, c, L, rect):
        image = self.images[L["file"]]
        iw, ih = image.width(), image.height()
        s = max(rect.width() / iw, rect.height() / ih)
        dst = skia.Rect.MakeXYWH(rect.centerX() - iw * s / 2, rect.centerY() - ih * s / 2, iw * s, ih * s)
        paint = None
        blur = L.get("blur")
        if blur and blur.get("preset") == "twitter":
            # The level the scroll selects (nearest: ceil(10 p)), blurred live: radius 3 i points.
            p = L.get("progress", 0)
            if blur.get("mode") == "blend":
                # The blur follows the scroll: the variance between the two levels around 10 p.
                a = min(9, math.floor(10 * p))
                t = 10 * p - a
                sa, sb = imageeffects_sigma(3 * a, self.scale), imageeffects_sigma(3 * (a + 1), self.scale)
                sigma = math.sqrt((1 - t) * sa * sa + t * sb * sb) / self.scale
            else:
                level = 0 if p <= 0 else max(1, min(10, math.ceil(10 * p - 1e-9)))
                sigma = imageeffects_sigma(3 * level, self.scale) / self.scale
            paint = skia.Paint(ColorFilter=saturation_filter(1.5))
            if sigma > 0:
                paint.setImageFilter(skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kClamp))
        c.drawImageRect(image, dst, skia.SamplingOptions(skia.FilterMode.kLinear), paint)
        if blur and blur.get("preset") == "twitter":
            c.drawRect(rect, skia.Paint(Color=skia.Color(255, 255, 255, 51)))


def prepare(path):
    drawer = SceneDrawer(path)
    # Tag the snapshot groups so draw() finds their pre-blurred image.
    def tag(layers):
        for layer in layers:
            if id(layer) in drawer.snapshots:
                layer["_id"] = id(layer)
            if layer["type"] == "group":
                tag(layer["layers"])
    tag(drawer.scene["layers"])
    return drawer
