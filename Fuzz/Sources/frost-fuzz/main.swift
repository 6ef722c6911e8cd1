import FrostFuzz
#if canImport(Glibc)
import Glibc
#endif

/// The target named by FROST_FUZZ_TARGET (decode, info, scene, motion, cache, png-round-trip).
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
