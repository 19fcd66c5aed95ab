import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `curl_global_init` result. libcurl wants exactly one global initialisation before any thread
/// uses it; a Swift global `let` is initialised lazily and exactly once (`swift_once`), and every
/// engine reads it in its initialiser, before it creates a multi handle or starts its thread.
let curlGlobalInitCode: Int = Int(CCurl_global_init_all().rawValue)

/// What a new engine thread runs; passed through pthread's `void *` argument.
private final class EngineThreadEntry {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// Names the calling thread. Glibc's `pthread_setname_np` is a GNU extension Swift's Glibc module
/// does not export, so on Linux the name is written to `/proc/thread-self/comm` instead.
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

enum EngineThread {
    /// Starts a detached, named OS thread; `false` when the system refused one.
    ///
    /// A plain pthread rather than a Swift `Task` or `Thread`: the engine blocks in
    /// `curl_multi_poll`, which must never happen on Swift's cooperative pool. The name shows up in
    /// `/proc/self/task/*/comm` (threads curl might spawn inherit it, so tests can count them).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let entry = Unmanaged.passRetained(EngineThreadEntry(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let entry = Unmanaged<EngineThreadEntry>.fromOpaque(raw).takeRetainedValue()
                nameCurrentThread(entry.name)
                entry.body()
                return nil
            }, entry)
        guard rc == 0 else {
            Unmanaged<EngineThreadEntry>.fromOpaque(entry).release()
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
