import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Named, detached OS threads for work that blocks: the curl engine (`epoll_wait` /
/// `curl_multi_poll`), the Redis workers (hiredis) and the audit writer (`write`, `fsync`). Such
/// calls must never run on Swift's cooperative pool, so these are plain pthreads, not `Task`s.
public enum DedicatedThread {
    /// Starts a detached OS thread named `name` (at most 15 bytes are kept, the kernel's limit)
    /// running `body`; `false` when the system refused a thread. The name shows in
    /// `/proc/self/task/*/comm`, `top -H` and profiles, and it is set before this returns: the
    /// thread names itself, and on a loaded machine it may not run for a while, so without the
    /// wait a caller looking at the process's threads right after start could miss it.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let named = DispatchSemaphore(value: 0)
        let entry = Unmanaged.passRetained(DedicatedThreadEntry(name: name, named: named, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let entry = Unmanaged<DedicatedThreadEntry>.fromOpaque(raw).takeRetainedValue()
                nameCurrentThread(entry.name)
                entry.named.signal()
                entry.body()
                return nil
            }, entry)
        guard rc == 0 else {
            Unmanaged<DedicatedThreadEntry>.fromOpaque(entry).release()
            return false
        }
        named.wait()
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}

/// What a new thread runs; passed through pthread's `void *` argument.
private final class DedicatedThreadEntry {
    let name: String
    /// Signalled once the thread has its name.
    let named: DispatchSemaphore
    let body: @Sendable () -> Void

    init(name: String, named: DispatchSemaphore, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.named = named
        self.body = body
    }
}

/// Names the calling thread. Glibc's `pthread_setname_np` is a GNU extension Swift's Glibc
/// module does not export, so on Linux the name is written to `/proc/thread-self/comm`.
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
