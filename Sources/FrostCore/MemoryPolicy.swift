import CFrostSystem

/// How the process's allocator (glibc's malloc) treats the large buffers images live in.
public enum MemoryPolicy {
    /// Keeps up to `bytes` of freed memory in the process for the next buffers, instead of giving
    /// each large buffer back to the system when it is freed and mapping it anew (and taking a
    /// page fault per 4 KiB) for the next image. Process-wide: call it once, early, in a program
    /// that works on one image after another (a server, a batch); `frost` keeps 1 GiB.
    public static func keepFreedBuffers(upTo bytes: Int) {
        frost_keep_freed_buffers(max(0, bytes))
    }
}
