import CCurl

/// Idle libcurl easy handles, reset and kept for the next transfer.
///
/// `curl_easy_init` allocates and initialises a large handle (buffers, defaults) and
/// `curl_easy_cleanup` frees it again, for every call of a busy gateway. A handle is
/// `curl_easy_reset` as soon as its transfer is done,
/// which clears every option (so no pointer into a finished transfer survives) but keeps the
/// allocations. Connections live in the multi handle, not here.
///
/// Confined to the engine thread like the multi handle: created by the engine, used only from
/// `runLoop` and from `CurlTransfer.deinit`, which runs there too. No lock, and not `Sendable`.
final class EasyHandlePool {
    private var idle: [UnsafeMutableRawPointer] = []
    private var closed = false
    let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
        idle.reserveCapacity(self.limit)
    }

    /// A reset handle from the pool, or a new one; `nil` only if curl cannot allocate.
    func take() -> UnsafeMutableRawPointer? {
        idle.popLast() ?? curl_easy_init()
    }

    /// Takes back a handle that is no longer on the multi handle.
    func recycle(_ easy: UnsafeMutableRawPointer) {
        guard !closed, idle.count < limit else {
            curl_easy_cleanup(easy)
            return
        }
        curl_easy_reset(easy)
        idle.append(easy)
    }

    /// Frees every idle handle; handles recycled afterwards are freed at once.
    func close() {
        closed = true
        for easy in idle { curl_easy_cleanup(easy) }
        idle.removeAll()
    }
}
