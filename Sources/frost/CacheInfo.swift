import FrostCache
import FrostCodecs
import FrostCore
import Foundation

/// `frost info DIR` on a cache folder: the cache in one line, then a line per level (σ, stored
/// size, factor, margin, bytes, format) with what is wrong with it, if anything.
enum CacheInfo {
    static func text(_ folder: String, _ check: CacheCheck) -> String {
        let m = check.manifest, plan = m.plan
        var lines = ["\(folder): frost blur cache v\(m.version) of \(m.source.file) \(m.source.width)x\(m.source.height), "
            + "\(m.levels.count) levels, \(plan.renderer.rawValue) to σ \(decimal(plan.maxSigma)), "
            + "\(m.parameters.format.rawValue), \(byteCount(check.totalBytes))\(check.isSound ? "" : ", BROKEN")"]
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

    static func json(_ folder: String, _ check: CacheCheck) -> String {
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
        ]
        return jsonObject(fields)
    }
}
