import FrostCore

extension ImageService.Settings {
    /// The server's settings that shape a result's bytes or Content-Type, hashed (16 hex digits):
    /// folded into every result's cache key and ETag, so that a restart with another `--quality`,
    /// `--watermark`, `--preferred-formats`… over the same `--cache` folder, or a replica set up
    /// otherwise, never answers another setting's bytes under its key nor a 304 for them. Made
    /// once, when the service is (`ImageService.init`): the watermark's pixels are hashed here, not
    /// per request. In: the defaults a URL falls back on (preferred formats, quality, per-format
    /// quality, metadata, copyright, colour profile and rotation defaults, the result's largest
    /// side, the watermark's pixels and opacity), every decoder setting (the rendering intent and
    /// truncated reads change pixels; the limits only refuse, but a field added to them later is
    /// then never missed). The blur caches' largest side (a `fade:` frame's size) is added for
    /// `fade:` results only (`fadeFingerprint`), so that a server without `--cache` answers the
    /// other results under the same ETags as one with it. Out, as they change no byte of a result: the signer, the sources allowed, presets (the options they
    /// expand to are in `ProcessingOptions.identity`), auto WebP/AVIF (the format they choose is in
    /// `OutputFormat.identity`), max-age, cache sizes, and threads (results are the same for any
    /// count, docs/effects.md).
    func resultFingerprint() -> String {
        let d = processor.defaults
        let quality = d.formatQuality.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }
        let watermark = d.watermark.map { mark in
            var hash = SHA256()
            hash.update(Array("\(mark.width)x\(mark.height)|\(mark.isPremultiplied)|\(mark.hasAlpha)|\(mark.isGray)|".utf8))
            hash.update(mark.pixels)
            hash.update(mark.iccProfile ?? [])
            return SHA256.hexString(hash.finalize())
        } ?? "-"
        let text = ["pf=\(d.preferredFormats.map(\.rawValue))", "q=\(d.quality)", "fq=\(quality)",
                    "sm=\(d.stripMetadata),kcr=\(d.keepCopyright),scp=\(d.stripColorProfile),ar=\(d.autoRotate)",
                    "mrd=\(d.maxResultDimension)", "wm=\(watermark)", "wmo=\(d.watermarkOpacity)",
                    "decode=\(processor.limits)"].joined(separator: "/")
        return String(SHA256.hex(Array(text.utf8)).prefix(16))
    }

    /// `fingerprint` for a `fade:` result: with the side its frame is made at.
    func fadeFingerprint(_ fingerprint: String) -> String {
        fingerprint + "|side=\(blurCaches.map { "\($0.maxSide ?? 0)" } ?? "-")"
    }
}
