import Foundation
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Every numeric option of every verb, and every key of every `run` step, at the bounds its help
/// prints and just outside them, on a small image: the process ends with 0, 1 or 64 (never a
/// signal), a failure is one line `frost: …`, a value outside the range is refused as a usage
/// error (64) and a value at a bound is not.
@Suite(.serialized) struct OptionSweepTests {
    /// A numeric range as a help prints it: "A to B" or "above A up to B".
    struct PrintedRange: CustomStringConvertible {
        let option: String
        let lower: Double, upper: Double, excludesLower: Bool

        var description: String { "\(option) \(excludesLower ? "above " : "")\(lower) to \(upper)" }

        /// Values at the bounds (inside) and just outside them, as option text.
        var samples: (inside: [String], outside: [String]) {
            let integral = lower == lower.rounded() && upper == upper.rounded()
            let step = integral ? 1.0 : 0.01
            func text(_ x: Double) -> String { integral ? String(Int(x)) : String(x) }
            let low = excludesLower ? lower + step : lower
            return ([text(low), text(upper)], [text(excludesLower ? lower : lower - step), text(upper + step)])
        }
    }

    /// The ranges of the option rows of `help`: each row's text (its wrapped lines joined) holds
    /// the first "A to B" or "above A up to B" it states.
    static func ranges(in help: String) -> [PrintedRange] {
        var rows: [(String, String)] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  --") {
                let name = String(line.dropFirst(2).prefix { $0 != " " })
                rows.append((name, String(line)))
            } else if line.hasPrefix("      "), !rows.isEmpty {
                rows[rows.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            } else if !line.hasPrefix("  -") {
                rows.append(("", ""))   // a section header or a short option ends a row
            }
        }
        let number = #"(-?[0-9]+(?:\.[0-9]+)?)"#
        let pattern = try! NSRegularExpression(pattern: #"(above )?"# + number + #" (?:up )?to "# + number)
        return rows.compactMap { name, text in
            guard name.hasPrefix("--"),
                  let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: text).map { String(text[$0]) } }
            return PrintedRange(option: name, lower: Double(group(2)!)!, upper: Double(group(3)!)!, excludesLower: group(1) != nil)
        }
    }

    /// The "(values: a, b, c; …)" lists of the option rows of `help`.
    static func valueLists(in help: String) -> [(option: String, values: [String])] {
        var rows: [(String, String)] = []
        for line in help.split(separator: "\n") {
            if line.hasPrefix("  --") {
                rows.append((String(line.dropFirst(2).prefix { $0 != " " }), String(line)))
            } else if line.hasPrefix("      "), !rows.isEmpty {
                rows[rows.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return rows.compactMap { name, text in
            guard let start = text.range(of: "(values: ") else { return nil }
            let list = text[start.upperBound...].prefix { $0 != ";" && $0 != ")" }
            return (name, list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }

    /// The files the verbs read: a small image with alpha, a cache of it, a scene and a motion.
    struct Inputs {
        let folder: TemporaryFolder
        var image: String { folder.file("small.png") }
        var cache: String { folder.file("cache") }
        var scene: String { folder.file("scene.json") }
        var motion: String { folder.file("motion.json") }

        init() throws {
            folder = try TemporaryFolder()
            try noiseImage(width: 24, height: 16).write(toFile: folder.file("small.png"))
            let built = try FrostRun.run(["cache", folder.file("small.png"), "-o", folder.file("cache"), "--levels", "2"])
            #expect(built.status == 0, "\(built.stderr)")
            try Data(#"{"width": 20, "height": 12, "layers": [{"type": "image", "file": "small.png", "frame": [2, 2, 16, 8]}]}"#.utf8)
                .write(to: URL(fileURLWithPath: folder.file("scene.json")))
            try Data(#"""
                {"width": 20, "height": 12, "timeline": {"driver": "scroll", "from": 0, "to": 10, "frames": 3},
                 "layers": [{"type": "image", "file": "small.png", "frame": [2, 2, 16, 8],
                             "animate": {"opacity": {"keys": [[0, 1], [10, 0]]}}}]}
                """#.utf8).write(to: URL(fileURLWithPath: folder.file("motion.json")))
        }
    }

    /// A verb's command line around the option under test (which it may need instead of a default).
    static func commandLine(_ verb: String, _ option: String, _ value: String, _ inputs: Inputs, _ out: String) -> [String] {
        let tested = [option, value]
        // A quality is for JPEG (and WebP); PNG output refuses it. --format chooses the format of
        // a folder's files (a name's extension would contradict it).
        let image = option == "--quality" ? ".jpg" : option == "--format" ? "/" : option == "--dither" ? ".gif" : ".png"
        switch verb {
        case "blur": return ["blur", inputs.image, out + image] + (["--sigma", "--box"].contains(option) ? [] : ["--sigma", "1"]) + tested
        case "resize": return ["resize", inputs.image, out + image] + (["--width", "--height"].contains(option) ? [] : ["--width", "8"]) + tested
        case "effect", "adjust", "convert": return [verb, inputs.image, out + image] + tested
        case "run": return ["run", inputs.image, out + image, "blur:sigma=1"] + tested
        case "cache":
            return ["cache", inputs.image, "-o", out] + (option == "--levels" ? [] : ["--levels", "2"])
                + (option == "--quality" ? ["--format", "jpg"] : []) + tested
        case "fade":
            return ["fade", inputs.cache, "-o", out + (option == "--frames" ? "" : image)]
                + (["--fraction", "--frames"].contains(option) ? [] : ["--fraction", "0.5"]) + tested
        case "sheet": return ["sheet", inputs.cache, "-o", out + image] + tested
        case "page": return ["page", inputs.cache, "-o", out + ".html"] + tested
        case "compose": return ["compose", inputs.scene, "-o", out + image] + tested
        case "animate":
            let animation = option == "--quality" ? ".webp" : ["--colors", "--dither"].contains(option) ? ".gif" : ""
            return ["animate", inputs.motion, "-o", out + animation, "--strip", out + "-strip.png"] + tested
        case "bench": return ["bench", "--size", "16x16", "--case", "copy"] + (option == "--runs" ? [] : ["--runs", "1"]) + tested
        case "info": return ["info", inputs.image] + tested
        case "placeholder":
            // A drawn hash's size and colour space go with --decode (a printed placeholder is sRGB).
            return ["--width", "--height", "--colorspace"].contains(option)
                ? ["placeholder", "--decode", "LEHV6nWB2yk8pyo0adR*.7kCMdnj", "-o", out + ".png"] + tested
                : ["placeholder", inputs.image, "--kind", "data-url"] + tested
        default: fatalError("no command line for \(verb)")
        }
    }

    static let verbs = ["info", "convert", "blur", "effect", "adjust", "resize", "run", "cache", "fade", "sheet", "page",
                        "placeholder", "compose", "animate", "bench"]

    /// In-range values that are refused as usage errors on purpose, with why.
    static let refusedInRange: [String: String] = [
        "cache --jobs": "--jobs needs --batch",
    ]

    static func expectClean(_ run: FrostRun, _ arguments: [String]) {
        let command = arguments.joined(separator: " ")
        #expect([0, 1, 64].contains(run.status), "\(command): status \(run.status), \(run.stderr)")
        if run.status != 0 {
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("frost: "), "\(command): \(run.stderr)")
        }
    }

    @Test(arguments: verbs)
    func everyNumericOptionAtAndBeyondItsPrintedBounds(verb: String) throws {
        let inputs = try Inputs()
        defer { inputs.folder.remove() }
        let ranges = Self.ranges(in: try FrostRun.run([verb, "--help"]).stdout)
        #expect(!ranges.isEmpty || verb == "info" || verb == "page", "\(verb): no range found in its help")
        for (n, range) in ranges.enumerated() {
            let (inside, outside) = range.samples
            for (k, value) in (inside + outside).enumerated() {
                let out = inputs.folder.file("out-\(n)-\(k)")
                let arguments = Self.commandLine(verb, range.option, value, inputs, out)
                let run = try FrostRun.run(arguments)
                Self.expectClean(run, arguments)
                if outside.contains(value) {
                    #expect(run.status == 64, "\(arguments.joined(separator: " ")): outside \(range), \(run.stderr)")
                } else if Self.refusedInRange["\(verb) \(range.option)"] == nil {
                    #expect(run.status != 64, "\(arguments.joined(separator: " ")): inside \(range), \(run.stderr)")
                }
            }
        }
    }

    /// The same for the keys of `run`'s steps, each step's ranges read from its verb's help.
    @Test(arguments: ["blur", "effect", "adjust", "resize"])
    func everyStepKeyAtAndBeyondItsPrintedBounds(step: String) throws {
        let inputs = try Inputs()
        defer { inputs.folder.remove() }
        let help = try FrostRun.run([step, "--help"]).stdout
        // The step's own section ends where the shared options (-o/--output) begin.
        let own = String(help[..<(help.range(of: "  -o, --output")?.lowerBound ?? help.endIndex)])
        let ranges = Self.ranges(in: own)
        #expect(!ranges.isEmpty)
        for range in ranges {
            let (inside, outside) = range.samples
            for value in inside + outside {
                let key = range.option.dropFirst(2)
                let needs = step == "blur" && key != "sigma" && key != "box" ? ",sigma=1"
                    : step == "resize" && key != "width" && key != "height" ? ",width=8" : ""
                let arguments = ["run", inputs.image, inputs.folder.file("out.png"), "\(step):\(key)=\(value)\(needs)"]
                let run = try FrostRun.run(arguments)
                Self.expectClean(run, arguments)
                #expect((run.status == 64) == outside.contains(value), "\(arguments.joined(separator: " ")): \(range), \(run.stderr)")
            }
        }
    }

    /// The widest blurs the options allow together (an effect's 500 points at scale 4 is a box of
    /// radius 1880): written, not a signal, through the verb, a chain and a cache.
    @Test func theLargestBoxesTheOptionsAllowTogether() throws {
        let inputs = try Inputs()
        defer { inputs.folder.remove() }
        for arguments in [["effect", inputs.image, inputs.folder.file("e.png"), "--radius", "500", "--scale", "4"],
                          ["run", inputs.image, inputs.folder.file("r.png"), "effect:radius=400,scale=3"],
                          ["cache", inputs.image, "-o", inputs.folder.file("c"), "--max-radius", "500", "--scale", "4",
                           "--spacing", "linear", "--levels", "3"]] {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 0, "\(arguments.joined(separator: " ")): \(run.stderr)")
        }
    }

    /// Every value a help lists for an option is one the verb accepts: never a usage error.
    @Test(arguments: verbs)
    func everyListedValueIsAccepted(verb: String) throws {
        let inputs = try Inputs()
        defer { inputs.folder.remove() }
        for (n, list) in Self.valueLists(in: try FrostRun.run([verb, "--help"]).stdout).enumerated() {
            for (k, value) in list.values.enumerated() {
                let arguments = Self.commandLine(verb, list.option, value, inputs, inputs.folder.file("v-\(n)-\(k)"))
                let run = try FrostRun.run(arguments)
                Self.expectClean(run, arguments)
                #expect(run.status != 64, "\(arguments.joined(separator: " ")): \(run.stderr)")
            }
        }
    }

    /// The parser of this test reads what the help prints.
    @Test func rangesAreReadFromTheHelp() throws {
        let ranges = Self.ranges(in: try FrostRun.run(["effect", "--help"]).stdout)
        let text = ranges.map(\.description)
        #expect(text.contains("--radius 0.0 to 500.0"))
        #expect(text.contains("--scale above 0.0 to 4.0"))
        #expect(text.contains("--saturation -100.0 to 100.0"))
        #expect(text.contains("--quality 1.0 to 100.0"))
        let lists = Self.valueLists(in: try FrostRun.run(["page", "--help"]).stdout)
        #expect(lists.map(\.option) == ["--mode"] && lists[0].values == ["blend", "nearest", "alpha"])
    }
}
