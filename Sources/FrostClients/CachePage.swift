import FrostCache
import FrostCrossfade

/// A web page that shows a blur cache as `frost fade` does, following the page's scroll: the
/// levels stacked at their manifest placement, the two around the current σ shown by opacity
/// (docs/cache-format.md). One HTML file with a small script, no framework, no network.
public enum CachePage {
    /// The page for `manifest`; `source(file)` is the URL of a level file as the page sees it. The
    /// fade runs over `scrollHeight` CSS pixels of scrolling: p = clamp(scrollY / scrollHeight),
    /// the mapping of `frost fade --offset Y --start 0 --end H`. One CSS pixel is one source pixel.
    public static func html(_ manifest: CacheManifest, source: (String) -> String, scrollHeight: Double, mode: FadeMode) -> String {
        precondition(mode != .exact, "a page crossfades stored levels; exact frames need a blur")
        let w = manifest.source.width, h = manifest.source.height
        let images = manifest.levels.map { level in
            let g = level.geometry
            return "<img src=\"\(escaped(source(level.file)))\" alt=\"level \(level.index)\" decoding=\"sync\" "
                + "style=\"left:\(css(g.x))px;top:\(css(g.y))px;width:\(css(g.width))px;height:\(css(g.height))px\">"
        }.joined(separator: "\n  ")
        let sigmas = manifest.levels.map { String($0.sigma) }.joined(separator: ",")
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width">
        <title>\(escaped(manifest.source.file)): blur cache</title>
        <style>
        html, body { margin: 0; background: #111; color: #ccc; font: 13px/1.4 sans-serif; }
        #stage { position: sticky; top: 0; width: \(w)px; height: \(h)px; overflow: hidden; background: #000; isolation: isolate; }
        #stage img { position: absolute; opacity: 0; max-width: none; }
        #stage img.upper { mix-blend-mode: plus-lighter; }
        #caption { position: sticky; top: \(h)px; padding: 4px 8px; }
        #scroll { height: calc(\(scrollHeight)px + 100vh); }
        </style>
        </head>
        <body>
        <div id="stage">
          \(images)
        </div>
        <div id="caption"></div>
        <div id="scroll"></div>
        <script>
        // frost fade's frame selection (FrostCrossfade CachePlan.selection) and scroll mapping.
        const sigmas = [\(sigmas)], mode = "\(mode.rawValue)", scrollHeight = \(scrollHeight);
        const images = document.querySelectorAll("#stage img"), caption = document.getElementById("caption");
        function selection(p) {
          p = Math.min(Math.max(p, 0), 1);
          const n = sigmas.length - 1;
          if (mode === "nearest") { const b = p === 0 ? 0 : Math.max(1, Math.min(n, Math.ceil(n * p - 1e-9))); return [b, b, 0]; }
          if (mode === "alpha") return [0, n, p];
          const target = p * sigmas[n], upper = sigmas.findIndex(s => s >= target);
          if (upper <= 0) return [0, 0, 0];
          const a = sigmas[upper - 1], b = sigmas[upper];
          return [upper - 1, upper, Math.min(Math.max((target * target - a * a) / (b * b - a * a), 0), 1)];
        }
        // (1 − t)·lower + t·upper: the lower level drawn over the black stage at opacity 1 − t, the
        // upper one added to it (plus-lighter: premultiplied, so right for transparent levels too)
        // at opacity t. t is kept in 256ths: an 8-bit compositor (Chromium's raster, Skia) takes
        // opacity k/255 as (k + 1)/256 and floors a drawn level but rounds an added one up, so the
        // weights (256 − k)/256 and k/256 sum to 1 and the two roundings cancel (docs/cache-format.md).
        function show() {
          const p = scrollHeight > 0 ? Math.min(Math.max(window.scrollY / scrollHeight, 0), 1) : 1;
          let [lower, upper, t] = selection(p);
          const k = Math.round(t * 256);
          if (k === 0) upper = lower; else if (k === 256) lower = upper;
          images.forEach((image, i) => {
            image.classList.toggle("upper", i === upper && upper !== lower);
            image.style.opacity = i === lower && i === upper ? 1 : i === lower ? (255 - k) / 255 : i === upper ? k / 255 : 0;
          });
          caption.textContent = `p ${p.toFixed(3)}  σ ${(p * sigmas[sigmas.length - 1]).toFixed(2)}  levels ${lower}` + (upper !== lower ? `–${upper}, t ${t.toFixed(3)}` : "");
        }
        window.addEventListener("scroll", show, { passive: true });
        // page.html#scroll=Y opens the page scrolled to Y (a link to one frame of the fade).
        // (After load: before it the document may not be tall enough to scroll.)
        const start = /scroll=(-?[0-9.]+)/.exec(location.hash);
        window.addEventListener("load", () => { if (start) window.scrollTo(0, Number(start[1])); show(); });
        show();
        </script>
        </body>
        </html>

        """
    }

    /// A length as CSS writes it: whole numbers without ".0" (and never "-0").
    private static func css(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
