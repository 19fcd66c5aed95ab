import CCurl

/// Which sockets are in the curl engine's epoll set, and for what: the socket callback's
/// bookkeeping, as a value that takes curl's and epoll's events and answers with the one epoll
/// change to make (or none). Confined to the engine thread, like ``CurlEventLoop``, which applies
/// the answers.
///
/// **Idle connections stay in the set.** curl removes a connection's socket from its watch list
/// when a transfer on it ends and names it again when the next transfer starts, so under steady
/// load every call cost two `epoll_ctl` calls for a socket that never left the keep-alive pool.
/// A connection socket curl stops watching while it waited for input is therefore *parked*:
/// still registered for input, unknown to curl. When curl names it again for the same thing,
/// nothing changes. If a parked socket becomes readable (the server closed the idle connection,
/// or sent something it should not have), it leaves the set then, once, without curl being told:
/// curl's own check of a connection before it reuses one finds it dead and closes it.
///
/// Parking is safe only while the descriptor number means the same socket. So only sockets curl
/// created for a connection park (``opened(_:)``, from `CURLOPT_SOCKOPTFUNCTION`), and a socket
/// leaves the table when curl closes it (``closed(_:)``, from `CURLOPT_CLOSESOCKETFUNCTION`, which
/// closes it in curl's place). A number reused for a new connection is forgotten first, whatever
/// was recorded under it; other descriptors curl watches (a resolver's socket pair) never park.
struct CurlSocketTable {
    /// The epoll change an event asks for.
    enum Change: Equatable {
        case none
        /// Register the descriptor for the `what` curl asked.
        case add
        /// Change the registration to the `what` curl asked.
        case modify
        /// Take it out of the set.
        case remove
    }

    private struct Entry {
        /// curl's `CURL_POLL_*` the descriptor is registered for.
        var what: Int32
        var shard: Int32
        /// In the set although curl no longer watches it.
        var parked: Bool
    }

    private var registered: [Int32: Entry] = [:]
    /// Connection sockets curl created and has not closed.
    private var connections = Set<Int32>()

    /// Descriptors in the epoll set, parked ones included.
    var registeredCount: Int { registered.count }
    /// Idle connection sockets kept in the set.
    var parkedCount: Int { registered.values.lazy.filter(\.parked).count }

    /// curl's socket callback: watch `fd` for `what` (`CURL_POLL_IN`, `_OUT` or `_INOUT`) for `shard`.
    mutating func watch(_ fd: Int32, what: Int32, shard: Int32) -> Change {
        guard let entry = registered[fd] else {
            registered[fd] = Entry(what: what, shard: shard, parked: false)
            return .add
        }
        registered[fd] = Entry(what: what, shard: shard, parked: false)
        return entry.what == what && entry.shard == shard ? .none : .modify
    }

    /// curl's socket callback with `CURL_POLL_REMOVE`.
    mutating func unwatch(_ fd: Int32) -> Change {
        guard let entry = registered[fd] else { return .none }
        if entry.what == CURL_POLL_IN, connections.contains(fd) {
            registered[fd]?.parked = true
            return .none
        }
        registered[fd] = nil
        return .remove
    }

    /// epoll reported `fd` ready: `.none` means hand it to curl; `.remove` means it was parked and
    /// leaves the set now, and curl is not told.
    mutating func ready(_ fd: Int32) -> Change {
        guard registered[fd]?.parked == true else { return .none }
        registered[fd] = nil
        return .remove
    }

    /// The epoll change for `fd` failed: it is not in the set.
    mutating func failed(_ fd: Int32) {
        registered[fd] = nil
    }

    /// curl created `fd` for a connection. Whatever was recorded under the number belonged to a
    /// descriptor that is closed now, which took its registration with it.
    mutating func opened(_ fd: Int32) {
        registered[fd] = nil
        connections.insert(fd)
    }

    /// curl closes `fd` (a connection socket): closing drops it from the epoll set.
    mutating func closed(_ fd: Int32) {
        registered[fd] = nil
        connections.remove(fd)
    }

    /// Everything forgotten (the multi handles and the epoll set are gone).
    mutating func removeAll() {
        registered.removeAll()
        connections.removeAll()
    }
}
