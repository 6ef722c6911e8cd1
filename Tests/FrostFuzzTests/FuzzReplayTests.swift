import FrostCodecs
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

    /// The targets on inputs written here, so that each is known to run its checks.
    @Test func targetsRunOnHandMadeInputs() throws {
        FuzzTarget.scene.run(Array(#"{"width": 30, "height": 20, "layers": [{"type": "color", "color": "peony", "cornerRadius": 4}]}"#.utf8))
        FuzzTarget.motion.run(Array(#"{"width": 30, "height": 20, "timeline": {"driver": "time", "duration": 1}, "layers": [{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 0], [1, 1]]}}}]}"#.utf8))
        for kind: UInt8 in 0..<24 { FuzzTarget.pngRoundTrip.run([kind, 13] + (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }) }
        let png = try FileIO.read(Corpus.path("libpng/pngsuite/basn6a08.png"))
        FuzzTarget.decode.run(png)
        FuzzTarget.info.run(png)
        let manifest = Array(#"{"format": "frost-blur-cache"}"#.utf8)
        FuzzTarget.cache.run([0, UInt8(manifest.count)] + manifest + [0, UInt8(png.count >> 8), UInt8(png.count & 255)] + png)
    }
}
