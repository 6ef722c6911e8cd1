import FrostColor
#if canImport(Glibc)
import Glibc
#endif

/// What a decode says about a file it still reads: an ICC profile it ignores. Handed to the
/// handler the caller binds, for the file it reads, on the thread that decodes (the command line
/// prints `frost: FILE: warning: …`); without one, dropped (a library caller reads
/// `ImageInfo.ignoredProfile`). A thread-specific slot rather than a task-local value: decodes run
/// on plain threads, where Swift 6.3's statically linked runtime crashed pushing a task-local value.
public enum DecodeWarnings {
    /// Runs `body` with `handler` taking the warnings of the decodes made on this thread (called
    /// possibly more than once for one file: an animation's frames); the thread's handler before
    /// is restored after.
    public static func reporting<T>(to handler: @escaping @Sendable (String) -> Void, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        let held = Unmanaged.passRetained(Handler(handler))
        pthread_setspecific(key, held.toOpaque())
        defer {
            pthread_setspecific(key, previous)
            held.release()
        }
        return try body()
    }

    private final class Handler: Sendable {
        let call: @Sendable (String) -> Void
        init(_ call: @escaping @Sendable (String) -> Void) { self.call = call }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A profile the decoder ignores, and what it reads the pixels as instead.
    static func ignoredProfile(_ reason: String?, cmyk: Bool = false) {
        guard let reason, let slot = pthread_getspecific(key) else { return }
        Unmanaged<Handler>.fromOpaque(slot).takeUnretainedValue()
            .call("its ICC profile is ignored (\(reason)): the pixels are read as \(cmyk ? "the default CMYK (FOGRA39)" : "sRGB")")
    }
}

/// The profile a file carries, checked against the pixels its decoder gives: kept where it can
/// describe them, else ignored with the reason (`ColorProfile.reasonToIgnore`: another colour
/// space, a profile lcms2 cannot read or convert from), as libvips and sharp ignore it.
struct CarriedProfile {
    /// The profile the pixels are read under (nil: sRGB).
    let usable: [UInt8]?
    /// Why the carried profile is not used (nil: used, or none carried).
    let ignored: String?

    init(_ carried: [UInt8]?, for pixels: ColorProfile.Pixels) {
        ignored = carried.flatMap { ColorProfile.reasonToIgnore($0, for: pixels) }
        usable = ignored == nil ? carried : nil
    }

    /// A profile the file carries that its reader could not hand over, for `reason`.
    init(ignoring reason: String) {
        (usable, ignored) = (nil, reason)
    }
}
