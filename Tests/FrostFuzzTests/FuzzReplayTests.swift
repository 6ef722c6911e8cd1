import FrostCodecs
import FrostCompose
import FrostFiles
import FrostFuzz
import FrostTestSupport
import Foundation
import Testing

/// Every input the fuzzers found (Tests/Fixtures/fuzz/<target>/, kept by `make fuzz`) and every file
/// of a seed set, run again through the target it broke: each must now pass its properties.
@Suite struct FuzzReplayTests {
    static let fixtures = Corpus.repository + "/Tests/Fixtures/fuzz"

    static func inputs(_ target: FuzzTarget) -> [String] {
        let folder = "\(fixtures)/\(target.rawValue)"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { "\(folder)/\($0)" }
    }

    @Test(arguments: FuzzTarget.allCases)
    func keptFindingsStayFixed(_ target: FuzzTarget) throws {
        for path in Self.inputs(target) {
            target.run(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }

    /// What the scene findings now get, where they trapped: a one-line error naming the key, or
    /// (a backdrop of 400 points at scale 3, boxes of radius 1128, since boxes reach radius 2000)
    /// the picture; widened past the widest box (500 points at scale 5), an error naming the key.
    @Test(arguments: [
        ("crash-75c7125d76c0c8414cc836a4c2e6df2d4658a240", false, "layers[0].shadow.offset: expected numbers from -1000000 to 1000000"),
        ("crash-732f9671fdff5f0abe00559f3f3931f8cb96d868", false, nil),
        ("crash-732f9671fdff5f0abe00559f3f3931f8cb96d868", true,
         "layers[0].layers[0].radius: 500.0 points at 5.0 pixels per point needs boxes wider than 4001 pixels"),
    ])
    func sceneFindingsAreClearErrors(_ name: String, _ widened: Bool, _ expected: String?) throws {
        var text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(Self.fixtures)/scene/\(name)")), as: UTF8.self)
        if widened {
            text = text.replacingOccurrences(of: #""radius": 400.000001,"#, with: #""radius": 500,"#)
                .replacingOccurrences(of: #""scale": 3,"#, with: #""scale": 5,"#)
        }
        let bytes = Array(text.utf8)
        guard let expected else {
            #expect(try Scene(json: bytes).rendered().width == 10)
            return
        }
        #expect {
            _ = try Scene(json: bytes).rendered()
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    /// The targets on inputs written here, so that each is known to run its checks.
    @Test func targetsRunOnHandMadeInputs() throws {
        FuzzTarget.scene.run(Array(#"{"width": 30, "height": 20, "layers": [{"type": "color", "color": "peony", "cornerRadius": 4}]}"#.utf8))
        FuzzTarget.motion.run(Array(#"{"width": 30, "height": 20, "timeline": {"driver": "time", "duration": 1}, "layers": [{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 0], [1, 1]]}}}]}"#.utf8))
        for kind: UInt8 in 0..<24 { FuzzTarget.pngRoundTrip.run([kind, 13] + (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }) }
        let png = try FileIO.read(Corpus.path("libpng/pngsuite/basn6a08.png"))
        FuzzTarget.decode.run(png)
        FuzzTarget.info.run(png)
        // The whole entrance, for every output format (the second-to-last byte) and operation (the last).
        let jpeg = try FileIO.read(Corpus.path("pillow/jpeg/hopper.jpg"))
        for file in [png, jpeg] {
            for format in 0..<ImageFormat.writable.count { FuzzTarget.entrance.run(file + [UInt8(format), UInt8(format % 4)]) }
        }
        let manifest = Array(#"{"format": "frost-blur-cache"}"#.utf8)
        FuzzTarget.cache.run([0, UInt8(manifest.count)] + manifest + [0, UInt8(png.count >> 8), UInt8(png.count & 255)] + png)
        FuzzTarget.inputs.run(Array("a.jpg\n../b.png\n/abs/c.webp\n./d/./e.jpg\n# note\nx/../../y.png\n".utf8))
        FuzzTarget.placeholder.run(Array("LEHV6nWB2yk8pyo0adR*.7kCMdnj".utf8))
        FuzzTarget.placeholder.run([UInt8](Data(base64Encoded: "GIqGC4JGd4mPcoimn2KOCQeIiIiEeWg=")!))
        // Every imgproxy option through the pipeline on the target's small picture, extreme numbers included.
        for url in ["/_/rs:fill:300:200:1:1:sowe/g:ea:0.1/pd:2/wm:0.5:re:1:1:2/t:5/rot:90/fl:1/exar:1/plain/local:///a/b.jpg@webp",
                    "/_/w:9223372036854775807/el:1/plain/local:///a.png", "/_/z:1e308:1e308/w:9223372036854775807/el:1/plain/local:///a.png",
                    "/_/bl:1e300/sh:1e300/c:0.5:0.5:sm/mw:50/plain/local:///a.png@gif", "/_/rs:fit:65535:1:1/plain/local:///a.jpg@jpg",
                    "/_/exp:1/plain/local:///a.png", "/_/ex:1:fp:1:0/s:9:9/dpr:1e-300/plain/local:///a.png",
                    "/_/w:50/plain/s3://photos/a%253Fb.jpg%3Fv1@png", "/_/w:50/plain/s3://photos/a%zz.jpg", "/_/w:50/plain/s3://Photos/a.jpg",
                    "/_/w:50/plain/s3://other/a.jpg", "/_/w:50/czM6Ly9waG90b3MvYS5qcGc.png"] {
            FuzzTarget.serviceURL.run(Array(url.utf8))
        }
    }
}
