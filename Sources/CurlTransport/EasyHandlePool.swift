import CCurl

/// Idle libcurl easy handles, kept configured for the next transfer of the same kind.
///
/// `curl_easy_init` allocates and initialises a large handle (buffers, defaults) and
/// `curl_easy_cleanup` frees it again, for every call of a busy gateway. So handles are kept.
/// Most of a handle's options are the same for every transfer of one engine (callbacks, protocol
/// and size limits, TLS verification, the proxy, the method); libcurl keeps options across
/// transfers, so a handle that comes back is not `curl_easy_reset` (which costs as much as setting
/// the options again) but keeps them, tagged with its ``Profile``. A transfer of the same profile
/// then sets only its own options (URL, body, headers, timeouts, the pointers to itself); any
/// other profile gets a reset handle and sets everything. Either way, as soon as a transfer is
/// done its handle forgets every pointer into it (header list, error buffer, callback context),
/// so no pointer into a finished transfer survives in an idle handle.
///
/// Confined to the engine thread like the multi handle: created by the engine, used only from
/// `runLoop` and from `CurlTransfer.deinit`, which runs there too. No lock, and not `Sendable`.
final class EasyHandlePool {
    /// What a handle's kept options depend on beyond the engine's configuration, which is fixed
    /// per engine: the request's CA bundle and proxy overrides and the method's shape.
    struct Profile: Equatable {
        let caFile: String?
        let proxy: String
        let method: CurlHTTPClient.Method
        let hasBody: Bool
    }

    /// A handle and what its options are set for. A struct, not a tuple: arrays and optionals of
    /// tuples had the runtime look up the tuple's type metadata on every take and recycle.
    struct Handle {
        let easy: UnsafeMutableRawPointer
        /// ``take(for:)``: whether it kept the profile's options. In the idle list: the profile
        /// they are set for, `nil` for a reset handle.
        let profile: Profile?
    }

    private var idle: [Handle] = []
    private var closed = false
    let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
        idle.reserveCapacity(self.limit)
    }

    /// A handle for a transfer of `profile`: with that profile when it kept the profile's options
    /// from its last transfer, else reset (or new), with none, and needing every option. `nil`
    /// only if curl cannot allocate.
    func take(for profile: Profile) -> Handle? {
        if let index = idle.lastIndex(where: { $0.profile == profile }) {
            return idle.remove(at: index)
        }
        if let last = idle.popLast() {
            if last.profile != nil { curl_easy_reset(last.easy) }
            return Handle(easy: last.easy, profile: nil)
        }
        return curl_easy_init().map { Handle(easy: $0, profile: nil) }
    }

    /// Takes back a handle that is no longer on the multi handle. `profile` is what its options
    /// were set for, or `nil` when setting them failed part way (it is then reset before reuse).
    func recycle(_ easy: UnsafeMutableRawPointer, profile: Profile?) {
        guard !closed, idle.count < limit else {
            curl_easy_cleanup(easy)
            return
        }
        guard let profile else {
            curl_easy_reset(easy)
            idle.append(Handle(easy: easy, profile: nil))
            return
        }
        // The options that point into the finished transfer; each is set again by the next one.
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, nil)
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, nil)
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, nil)
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, nil)
        _ = CCurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, nil)
        idle.append(Handle(easy: easy, profile: profile))
    }

    /// Frees every idle handle; handles recycled afterwards are freed at once.
    func close() {
        closed = true
        for entry in idle { curl_easy_cleanup(entry.easy) }
        idle.removeAll()
    }
}
