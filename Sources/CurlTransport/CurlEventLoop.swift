import CCurl

/// The engine's libcurl multi handles (its shards), how the engine thread sleeps until a socket,
/// curl's timer or a caller needs it, and how it then lets libcurl make progress.
///
/// - `sockets` (Linux, the default): `curl_multi_socket_action` driven by one epoll set for every
///   shard. curl names the sockets to watch through its socket callback and its next deadline
///   through its timer callback, per multi handle; each registered socket carries its shard's
///   index, so a turn costs work in proportion to the sockets that *have* events.
/// - `polling` (other systems, or when epoll cannot be set up, or when configured): the portable
///   `curl_multi_perform` + `curl_multi_poll` on a single multi handle. libcurl 7.88 then runs every
///   transfer and polls each transfer's socket on every turn, so a turn costs syscalls in
///   proportion to the calls in flight, which dominates the engine thread with many calls open
///   against a slow carrier.
///
/// Why shards: see ``CurlShardPicker``. Each multi handle has its own connection cache, so its
/// keep-alive limit (`CURLMOPT_MAXCONNECTS`) is per shard.
///
/// Confined to the engine thread, except ``wake()``, which any thread may call while the engine's
/// lifecycle is not `.stopped` (the engine checks that under its lock, as it did for
/// `curl_multi_wakeup`). The callbacks receive a ``Shard`` unretained: this object holds every
/// shard for longer than the multi handles live, and curl calls them only from inside calls the
/// engine thread makes.
final class CurlEventLoop {
    enum Mode: Equatable {
        case sockets(epoll: Int32, wakeup: Int32)
        case polling
    }

    /// One multi handle and what curl last told its callbacks.
    final class Shard {
        let index: Int32
        let multi: UnsafeMutableRawPointer
        unowned let loop: CurlEventLoop
        /// When curl next wants `CURL_SOCKET_TIMEOUT` on this multi handle; `nil` when it has no timer.
        var timerDeadline: ContinuousClock.Instant?

        init(index: Int32, multi: UnsafeMutableRawPointer, loop: CurlEventLoop) {
            self.index = index
            self.multi = multi
            self.loop = loop
        }
    }

    let mode: Mode
    /// Each multi handle's `CURLMOPT_MAXCONNECTS`.
    let maxConnections: Int
    /// At least one; exactly one in the polling mode.
    private(set) var shards: [Shard] = []
    /// Descriptors registered with epoll, so the socket callback knows ADD from MOD.
    private var watched = Set<Int32>()
    /// The socket curl last named for each easy handle, for ``nudge(_:shard:)``.
    private var socketOfHandle: [UnsafeMutableRawPointer: Int32] = [:]
    private var readyFDs = [Int32](repeating: 0, count: 256)
    private var readyShards = [Int32](repeating: 0, count: 256)
    private var readyActions = [Int32](repeating: 0, count: 256)

    /// `nil` if libcurl cannot create a multi handle. `shardCount` is honoured in the socket mode
    /// only; `maxConnections` is each multi handle's keep-alive limit.
    init?(shardCount: Int, maxConnections: Int, preferSockets: Bool) {
        self.mode = preferSockets ? Self.makeSocketMode() : .polling
        self.maxConnections = max(1, maxConnections)
        let count = mode == .polling ? 1 : max(1, shardCount)
        for index in 0..<count {
            guard let shard = makeShard(index: Int32(index)) else {
                close()
                return nil
            }
            shards.append(shard)
        }
    }

    private func makeShard(index: Int32) -> Shard? {
        guard let multi = curl_multi_init() else { return nil }
        // The keep-alive pool: idle connections curl keeps for reuse across transfers.
        _ = CCurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
        let shard = Shard(index: index, multi: multi, loop: self)
        if case .sockets = mode { Self.installCallbacks(on: shard) }
        return shard
    }

    /// Replaces shard `index`'s multi handle with a fresh one, which closes the connections the old
    /// one kept (``CurlShardPicker``). Only while no transfer runs on it. `false` if libcurl cannot
    /// create a multi handle; the old one then stays.
    func renew(shard index: Int) -> Bool {
        guard shards.indices.contains(index), let fresh = makeShard(index: Int32(index)) else { return false }
        let old = shards[index]
        shards[index] = fresh
        // `old` must outlive the cleanup: curl may still call its socket callback.
        withExtendedLifetime(old) { curl_multi_cleanup(old.multi) }
        return true
    }

    private static func installCallbacks(on shard: Shard) {
        let multi = shard.multi
        let context = Unmanaged.passUnretained(shard).toOpaque()
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        _ = CCurl_multi_setopt_socket_callback(multi) { easy, fd, what, context, _ in
            guard let context else { return -1 }
            let shard = Unmanaged<Shard>.fromOpaque(context).takeUnretainedValue()
            shard.loop.watch(fd: Int32(fd), what: what, easy: easy, shard: shard.index)
            return 0
        }
        _ = CCurl_multi_setopt_timer_callback(multi) { _, timeoutMs, context in
            guard let context else { return -1 }
            Unmanaged<Shard>.fromOpaque(context).takeUnretainedValue().setTimer(timeoutMs: timeoutMs)
            return 0
        }
    }

    private static func makeSocketMode() -> Mode {
        #if os(Linux)
        let epoll = CCurl_epoll_create()
        guard epoll >= 0 else { return .polling }
        let wakeup = CCurl_wakeup_create(epoll)
        guard wakeup >= 0 else {
            CCurl_close(epoll)
            return .polling
        }
        return .sockets(epoll: epoll, wakeup: wakeup)
        #else
        return .polling
        #endif
    }

    /// Makes the engine thread's current or next ``turn(maxWaitMs:)`` return promptly. Any thread.
    func wake() {
        switch mode {
        case .sockets(_, let wakeup):
            #if os(Linux)
            CCurl_wakeup_signal(wakeup)
            #endif
        case .polling:
            curl_multi_wakeup(shards[0].multi)
        }
    }

    /// Waits for sockets, curl's timers, ``wake()`` or `maxWaitMs` (0: do not wait), then lets curl
    /// act on whatever is ready. Finished transfers are then read with `curl_multi_info_read`.
    func turn(maxWaitMs: Int32) {
        var running: Int32 = 0
        switch mode {
        case .polling:
            let multi = shards[0].multi
            if maxWaitMs > 0 { _ = curl_multi_poll(multi, nil, 0, maxWaitMs, nil) }
            _ = curl_multi_perform(multi, &running)
        case .sockets(let epoll, let wakeup):
            #if os(Linux)
            var timeout = maxWaitMs
            for shard in shards {
                if let deadline = shard.timerDeadline { timeout = min(timeout, Self.milliseconds(until: deadline)) }
            }
            let capacity = Int32(readyFDs.count)
            let count = readyFDs.withUnsafeMutableBufferPointer { fds in
                readyShards.withUnsafeMutableBufferPointer { owners in
                    readyActions.withUnsafeMutableBufferPointer { actions in
                        CCurl_epoll_wait(epoll, fds.baseAddress, owners.baseAddress, actions.baseAddress, capacity, timeout)
                    }
                }
            }
            for index in 0..<Int(max(0, count)) {
                let fd = readyFDs[index]
                if fd == wakeup {
                    CCurl_wakeup_drain(wakeup)
                } else if Int(readyShards[index]) < shards.count {
                    _ = CCurl_multi_socket_action(shards[Int(readyShards[index])].multi, fd, readyActions[index], &running)
                }
            }
            let now = ContinuousClock.now
            for shard in shards {
                guard let deadline = shard.timerDeadline, deadline <= now else { continue }
                shard.timerDeadline = nil
                _ = CCurl_multi_socket_action(shard.multi, -1, 0, &running)
                // curl calls the timer callback only when its next expiry *changes*. If this
                // firing ran nothing (it came a little early, say), the expiry is unchanged and no
                // callback comes: ask curl for its next expiry rather than lose the timer. (Timers
                // curl drops itself are the watchdog's job, CurlEngine+Watchdog.swift.)
                if shard.timerDeadline == nil {
                    var next = -1
                    if curl_multi_timeout(shard.multi, &next) == CURLM_OK { shard.setTimer(timeoutMs: next) }
                }
            }
            #else
            _ = epoll
            _ = wakeup
            #endif
        }
    }

    /// Makes curl run the transfer on `easy` (every transfer on its socket) although nothing
    /// happened there: see ``CurlWatchdog``. Returns `false` when curl
    /// named no socket for it, so there is nothing to nudge.
    @discardableResult
    func nudge(_ easy: UnsafeMutableRawPointer, shard: Int) -> Bool {
        guard let fd = socketOfHandle[easy], shards.indices.contains(shard) else { return false }
        var running: Int32 = 0
        _ = CCurl_multi_socket_action(shards[shard].multi, fd, 0, &running)
        return true
    }

    /// Forgets a handle leaving its multi handle (handles are reused for other transfers).
    func forget(_ easy: UnsafeMutableRawPointer) {
        socketOfHandle[easy] = nil
    }

    /// Frees every multi handle (closing their connections), then the epoll and wake-up
    /// descriptors. Call once every easy handle is off its multi handle and no thread can call
    /// ``wake()`` any more.
    func close() {
        for shard in shards { curl_multi_cleanup(shard.multi) }
        shards.removeAll()
        #if os(Linux)
        if case .sockets(let epoll, let wakeup) = mode {
            CCurl_close(wakeup)
            CCurl_close(epoll)
        }
        #endif
        watched.removeAll()
        socketOfHandle.removeAll()
    }

    // MARK: curl's callbacks (inside curl calls on the engine thread)

    fileprivate func watch(fd: Int32, what: Int32, easy: UnsafeMutableRawPointer?, shard: Int32) {
        #if os(Linux)
        guard case .sockets(let epoll, _) = mode else { return }
        if let easy { socketOfHandle[easy] = what == CURL_POLL_REMOVE ? nil : fd }
        if what == CURL_POLL_REMOVE {
            // The descriptor may be closed already (the kernel then dropped it from the set).
            _ = CCurl_epoll_watch(epoll, fd, what, 1, shard)
            watched.remove(fd)
        } else if CCurl_epoll_watch(epoll, fd, what, watched.contains(fd) ? 1 : 0, shard) == 0 {
            watched.insert(fd)
        }
        #endif
    }

    fileprivate static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = (deadline - .now).components
        guard left.seconds >= 0, left.attoseconds >= 0 else { return 0 }
        // Round up: waking a little late is fine, waking early only to find curl's timer not due is a wasted turn.
        let ms = left.seconds * 1_000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: ms)
    }
}

extension CurlEventLoop.Shard {
    fileprivate func setTimer(timeoutMs: Int) {
        timerDeadline = timeoutMs < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(timeoutMs))
    }
}
