#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the writer thread runs; passed through pthread's `void *` argument.
private final class AuditThreadEntry {
    let body: @Sendable () -> Void

    init(body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

enum AuditWriterThread {
    /// Starts the detached OS thread named `pg-audit`; `false` when the system refused one.
    ///
    /// A plain pthread rather than a `Task`: it blocks in `write` and `fsync`, which must never
    /// happen on Swift's cooperative pool.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let entry = Unmanaged.passRetained(AuditThreadEntry(body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let entry = Unmanaged<AuditThreadEntry>.fromOpaque(raw).takeRetainedValue()
                nameCurrentThread("pg-audit")
                entry.body()
                return nil
            }, entry)
        guard rc == 0 else {
            Unmanaged<AuditThreadEntry>.fromOpaque(entry).release()
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}

/// Names the calling thread (Linux: through `/proc/thread-self/comm`, as Glibc's
/// `pthread_setname_np` is not exported to Swift).
private func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
    pthread_setname_np(name)
    #elseif os(Linux)
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    #endif
}

/// Nanoseconds on the monotonic clock, which the writer's condition variable waits on (wall-clock
/// steps must not stretch or skip an fsync interval).
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Epoch milliseconds from the wall clock (record times, rotated file names).
func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
