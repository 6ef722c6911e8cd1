import FrostCodecs
import FrostFiles
import FrostFuzz
#if canImport(Glibc)
import Glibc
#endif

// `make fuzz` builds this with libFuzzer (`--sanitize=fuzzer`, FROST_LIBFUZZER defined): libFuzzer's
// main calls LLVMFuzzerTestOneInput with each input for the target named by FROST_FUZZ_TARGET.
// Built plainly (`swift build`), it runs files through a target once: `frost-fuzz TARGET FILE...`,
// a finding replayed by hand (FuzzReplayTests replays the kept ones).

#if FROST_LIBFUZZER
/// The target named by FROST_FUZZ_TARGET.
let target: FuzzTarget = {
    guard let name = getenv("FROST_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        fatalError("set FROST_FUZZ_TARGET to one of: " + FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            complain("usage: frost-fuzz TARGET FILE... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            exit(2)
        }
        for path in arguments.dropFirst() {
            do {
                target.run(try FileIO.read(path))
            } catch {
                complain("frost-fuzz: \(path): \(error)")
                exit(1)
            }
            print("\(path): ran")
        }
    }

    static func complain(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
#endif
