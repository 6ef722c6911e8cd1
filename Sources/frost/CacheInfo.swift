import FrostCache
import FrostCodecs
import FrostCore
import FrostFiles
import Foundation

/// `frost info DIR` on a cache folder: the cache in one line, then a line per level (σ, stored
/// size, factor, margin, bytes, format) with what is wrong with it, if anything.
enum CacheInfo {
    /// What `info --sources` found of a cache's source.
    enum Source {
        /// Where its source was is not known: its name is not `<its source's file name>.frost` (a single
        /// `frost cache IMAGE -o DIR`), or it was named alone and its name is not found under the roots. The reason.
        case notMirrored(String)
        /// Looked up as `cache --batch --prune` looks it up.
        case lookedUp(CacheSweep.SourceLookup)

        /// `relative` is the cache's path under the folder `info` was given (`a/b.jpg.frost`), or its name.
        /// `namedAlone`: the cache was named itself, so `relative` is only its name and its place
        /// under the roots is not known: a source not found there is not known, not gone.
        init(_ relative: String, _ manifest: CacheManifest, under roots: [String], namedAlone: Bool = false) {
            let mirrored = relative.hasSuffix(CacheSweep.suffix) ? String(relative.dropLast(CacheSweep.suffix.count)) : nil
            guard let mirrored, Storage.lastComponent(mirrored) == manifest.source.file else {
                self = .notMirrored("its name is not \(manifest.source.file)\(CacheSweep.suffix)")
                return
            }
            let found = CacheSweep.lookUpSource(mirrored, under: roots)
            if namedAlone, found.isGone {
                self = .notMirrored("named alone, not found at \(mirrored) under the sources: name the folder cache --batch wrote")
                return
            }
            self = .lookedUp(found)
        }

        var failed: Bool { if case .lookedUp(.failed) = self { true } else { false } }

        /// The text line under the cache's.
        var line: String {
            switch self {
            case .notMirrored(let reason): "source: not known (\(reason))"
            case .lookedUp(.present(let path)): "source: \(path)"
            case .lookedUp(.gone(let path)): "orphan: the source \(path) is gone"
            case .lookedUp(.failed(let path, _)): "source: \(path) not known (its lookup failed)"
            }
        }

        /// `source_path` and `orphan` of the JSON object.
        var fields: [(String, String)] {
            switch self {
            case .notMirrored: [("source_path", "null"), ("orphan", "null")]
            case .lookedUp(.present(let path)): [("source_path", jsonString(path)), ("orphan", "false")]
            case .lookedUp(.gone(let path)): [("source_path", jsonString(path)), ("orphan", "true")]
            case .lookedUp(.failed(let path, _)): [("source_path", jsonString(path)), ("orphan", "null")]
            }
        }
    }

    static func text(_ folder: String, _ check: CacheCheck, _ source: Source? = nil) -> String {
        let m = check.manifest, plan = m.plan
        var lines = ["\(folder): frost blur cache v\(m.version) of \(m.source.file) \(m.source.width)x\(m.source.height), "
            + "\(m.levels.count) levels, \(plan.renderer.rawValue) to σ \(decimal(plan.maxSigma)), "
            + "\(m.parameters.format.rawValue), \(byteCount(check.totalBytes))\(check.isSound ? "" : ", BROKEN")"]
        if let source { lines.append("  " + source.line) }
        let rows = check.levels.map { level -> [String] in
            let e = level.entry
            return ["level \(e.index)", "σ \(decimal(e.sigma))", "\(e.width)x\(e.height)", "1/\(e.factor)",
                    "margin \(e.storedMargin)",
                    level.bytes.map(byteCount) ?? "-", level.format?.rawValue ?? "-", level.problem.map { "BROKEN: \($0)" } ?? "ok"]
        }
        let widths = (0..<8).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            lines.append("  " + zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ folder: String, _ check: CacheCheck, _ source: Source? = nil) -> String {
        let m = check.manifest
        let levels = check.levels.map { level -> String in
            let e = level.entry
            return jsonObject([("index", "\(e.index)"), ("sigma", "\(e.sigma)"), ("width", "\(e.width)"), ("height", "\(e.height)"),
                               ("factor", "\(e.factor)"), ("margin", "\(e.storedMargin)"), ("file", jsonString(e.file)),
                               ("bytes", level.bytes.map { "\($0)" } ?? "null"),
                               ("format", level.format.map { jsonString($0.rawValue) } ?? "null"),
                               ("problem", level.problem.map(jsonString) ?? "null")])
        }
        let fields: [(String, String)] = [
            ("file", jsonString(folder)), ("format", jsonString(m.format)), ("version", "\(m.version)"),
            ("source", jsonString(m.source.file)), ("width", "\(m.source.width)"), ("height", "\(m.source.height)"),
            ("level_format", jsonString(m.parameters.format.rawValue)), ("max_sigma", "\(m.plan.maxSigma)"),
            ("bytes", "\(check.totalBytes)"), ("ok", "\(check.isSound)"), ("levels", "[" + levels.joined(separator: ", ") + "]"),
        ] + (source?.fields ?? [("source_path", "null"), ("orphan", "null")])
        return jsonObject(fields)
    }
}
