import CCurl
import Synchronization

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
/// Confined to the engine thread, except ``wake()``, which any thread may call at any time: its
/// gate makes it a no-op once ``close()`` has begun. The callbacks receive a ``CallbackContext``
/// unretained: this object holds every context for longer than the multi handles live, and curl
/// calls them only from inside calls the engine thread makes. The per-turn paths read plain arrays
/// (``multis``, the timer deadlines) rather than objects, so a turn over many shards costs no
/// reference counting.
final class CurlEventLoop {
    enum Mode: Equatable {
        case sockets(epoll: Int32, wakeup: Int32)
        case polling
    }

    /// What curl's callbacks get as their user pointer: which shard is calling, and the loop.
    final class CallbackContext {
        let shard: Int32
        unowned let loop: CurlEventLoop

        init(shard: Int32, loop: CurlEventLoop) {
            self.shard = shard
            self.loop = loop
        }
    }

    let mode: Mode
    /// Each multi handle's `CURLMOPT_MAXCONNECTS`.
    let maxConnections: Int
    /// The multi handles, by shard index: at least one, exactly one in the polling mode.
    private(set) var multis: [UnsafeMutableRawPointer] = []
    private var contexts: [CallbackContext] = []
    /// When curl next wants `CURL_SOCKET_TIMEOUT` on each multi handle, for the shards in
    /// ``armedTimers``. A set beside plain values rather than an array of optionals: every turn
    /// looks at the timers, and this way it looks only at the armed ones.
    private var timerDeadlines: [ContinuousClock.Instant] = []
    /// The shards whose multi handle has a timer running.
    private var armedTimers = CurlShardSet()
    /// What is in the epoll set and why (``CurlSocketTable``: idle connections stay in it). Also
    /// told by the connection callbacks (CurlEventLoop+Connections.swift).
    var sockets = CurlSocketTable()
    /// `epoll_ctl` calls made for curl's sockets: what the tests read to see idle connections stay put.
    let epollChanges = Atomic<Int>(0)
    /// The socket curl last named for each easy handle, for ``nudge(_:shard:)``.
    private var socketOfHandle: [UnsafeMutableRawPointer: Int32] = [:]
    private var readyFDs = [Int32](repeating: 0, count: 256)
    private var readyShards = [Int32](repeating: 0, count: 256)
    private var readyActions = [Int32](repeating: 0, count: 256)
    /// Whether ``wake()`` may still signal. ``close()`` shuts it before it frees the handles and
    /// descriptors, so a caller told to wake the engine just before the engine stopped signals
    /// nothing rather than a freed multi handle or a closed (perhaps reused) descriptor. Only the
    /// wakers (at most one per engine turn) and `close()` take it; the engine's state lock is not
    /// held while waking, so the woken thread does not find that lock taken.
    private let wakeGate = Mutex(true)

    /// `nil` if libcurl cannot create a multi handle. `shardCount` is honoured in the socket mode
    /// only; `maxConnections` is each multi handle's keep-alive limit.
    init?(shardCount: Int, maxConnections: Int, preferSockets: Bool) {
        self.mode = preferSockets ? Self.makeSocketMode() : .polling
        self.maxConnections = max(1, maxConnections)
        let count = mode == .polling ? 1 : max(1, shardCount)
        for index in 0..<count {
            let context = CallbackContext(shard: Int32(index), loop: self)
            guard let multi = makeMulti(context: context) else {
                close()
                return nil
            }
            multis.append(multi)
            contexts.append(context)
            timerDeadlines.append(.now)
        }
    }

    private func makeMulti(context: CallbackContext) -> UnsafeMutableRawPointer? {
        guard let multi = curl_multi_init() else { return nil }
        // The keep-alive pool: idle connections curl keeps for reuse across transfers.
        _ = CCurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
        if case .sockets = mode { Self.installCallbacks(on: multi, context: context) }
        return multi
    }

    /// Replaces shard `index`'s multi handle with a fresh one, which closes the connections the old
    /// one kept (``CurlShardPicker``). Only while no transfer runs on it. `false` if libcurl cannot
    /// create a multi handle; the old one then stays.
    func renew(shard index: Int) -> Bool {
        guard multis.indices.contains(index), let fresh = makeMulti(context: contexts[index]) else { return false }
        let old = multis[index]
        multis[index] = fresh
        // The old handle's callbacks (socket removals during the cleanup) still find their shard.
        curl_multi_cleanup(old)
        armedTimers.remove(index)
        return true
    }

    private static func installCallbacks(on multi: UnsafeMutableRawPointer, context: CallbackContext) {
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, pointer)
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, pointer)
        _ = CCurl_multi_setopt_socket_callback(multi) { easy, fd, what, pointer, _ in
            guard let pointer else { return -1 }
            let context = Unmanaged<CallbackContext>.fromOpaque(pointer).takeUnretainedValue()
            context.loop.watch(fd: Int32(fd), what: what, easy: easy, shard: context.shard)
            return 0
        }
        _ = CCurl_multi_setopt_timer_callback(multi) { _, timeoutMs, pointer in
            guard let pointer else { return -1 }
            let context = Unmanaged<CallbackContext>.fromOpaque(pointer).takeUnretainedValue()
            context.loop.setTimer(shard: Int(context.shard), timeoutMs: timeoutMs)
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

    /// Makes the engine thread's current or next ``waitAndAct(maxWaitMs:)`` return promptly. Any thread.
    func wake() {
        wakeGate.withLock { open in
            guard open else { return }
            switch mode {
            case .sockets(_, let wakeup):
                #if os(Linux)
                CCurl_wakeup_signal(wakeup)
                #endif
            case .polling:
                // The polling mode has one multi handle, which only `close()` frees (shard 0 is
                // never renewed), so `multis` does not change while the gate is open.
                curl_multi_wakeup(multis[0])
            }
        }
    }

    /// Waits for sockets, curl's timers, ``wake()`` or `maxWaitMs` (0: do not wait), then lets curl
    /// act on the sockets that are ready. In the socket mode curl's timers are left to
    /// ``runDueTimer(shard:)`` and ``runDueTimers()``, so that the engine can answer the callers
    /// whose replies were just read before it starts new transfers. In the polling mode this is the
    /// whole of curl's work for the turn, and a transfer added after it starts in the next turn's,
    /// which does not wait: `curl_multi_poll` caps its wait at curl's own timer, due at once for a
    /// new transfer. Finished transfers are then read with `curl_multi_info_read`.
    func waitAndAct(maxWaitMs: Int32) {
        var running: Int32 = 0
        switch mode {
        case .polling:
            let multi = multis[0]
            if maxWaitMs > 0 { _ = curl_multi_poll(multi, nil, 0, maxWaitMs, nil) }
            _ = curl_multi_perform(multi, &running)
        case .sockets(let epoll, let wakeup):
            #if os(Linux)
            var timeout = maxWaitMs
            if let deadline = earliestTimer() { timeout = min(timeout, Self.milliseconds(until: deadline)) }
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
                } else if sockets.ready(fd) == .remove {
                    apply(.remove, fd: fd, what: CURL_POLL_REMOVE, shard: readyShards[index], epoll: epoll)
                } else if Int(readyShards[index]) < multis.count {
                    _ = CCurl_multi_socket_action(multis[Int(readyShards[index])], fd, readyActions[index], &running)
                }
            }
            #else
            _ = epoll
            _ = wakeup
            #endif
        }
    }

    /// Runs curl's timers that are due (socket mode; the polling mode has none of its own),
    /// starting the transfers added since they were last run.
    func runDueTimers() {
        guard case .sockets = mode, !armedTimers.isEmpty else { return }
        let now = ContinuousClock.now
        for index in armedTimers where timerDeadlines[index] <= now { fireTimer(shard: index) }
    }

    /// Runs shard `index`'s timer if it is due: right after a transfer is added there, this is
    /// what starts it (curl asks for its timer at "now" when a handle is added), which writes its
    /// request. The engine starts each admitted transfer this way, one at a time, and answers
    /// whatever ended before it starts the next (``CurlEngine/runLoop()``).
    func runDueTimer(shard index: Int) {
        guard case .sockets = mode, armedTimers.contains(index), timerDeadlines[index] <= .now else { return }
        fireTimer(shard: index)
    }

    private func fireTimer(shard index: Int) {
        var running: Int32 = 0
        armedTimers.remove(index)
        _ = CCurl_multi_socket_action(multis[index], -1, 0, &running)
        // curl calls the timer callback only when its next expiry *changes*. If this firing ran
        // nothing (it came a little early, say), the expiry is unchanged and no callback comes:
        // ask curl for its next expiry rather than lose the timer. (Timers curl drops itself are
        // the watchdog's job, CurlEngine+Watchdog.swift.)
        if !armedTimers.contains(index) {
            var next = -1
            if curl_multi_timeout(multis[index], &next) == CURLM_OK { setTimer(shard: index, timeoutMs: next) }
        }
    }

    /// Makes curl run the transfer on `easy` (every transfer on its socket) although nothing
    /// happened there: see ``CurlWatchdog``. Returns `false` when curl
    /// named no socket for it, so there is nothing to nudge.
    @discardableResult
    func nudge(_ easy: UnsafeMutableRawPointer, shard: Int) -> Bool {
        guard let fd = socketOfHandle[easy], multis.indices.contains(shard) else { return false }
        var running: Int32 = 0
        _ = CCurl_multi_socket_action(multis[shard], fd, 0, &running)
        return true
    }

    /// Forgets a handle leaving its multi handle (handles are reused for other transfers).
    func forget(_ easy: UnsafeMutableRawPointer) {
        socketOfHandle[easy] = nil
    }

    /// Frees every multi handle (closing their connections), then the epoll and wake-up
    /// descriptors. Call once every easy handle is off its multi handle; a ``wake()`` from then on
    /// does nothing.
    func close() {
        wakeGate.withLock { $0 = false }
        for multi in multis { curl_multi_cleanup(multi) }
        multis.removeAll()
        timerDeadlines.removeAll()
        armedTimers = CurlShardSet()
        #if os(Linux)
        if case .sockets(let epoll, let wakeup) = mode {
            CCurl_close(wakeup)
            CCurl_close(epoll)
        }
        #endif
        sockets.removeAll()
        socketOfHandle.removeAll()
    }

    // MARK: curl's callbacks (inside curl calls on the engine thread)

    private func watch(fd: Int32, what: Int32, easy: UnsafeMutableRawPointer?, shard: Int32) {
        #if os(Linux)
        guard case .sockets(let epoll, _) = mode else { return }
        if let easy { socketOfHandle[easy] = what == CURL_POLL_REMOVE ? nil : fd }
        let change = what == CURL_POLL_REMOVE ? sockets.unwatch(fd) : sockets.watch(fd, what: what, shard: shard)
        apply(change, fd: fd, what: what, shard: shard, epoll: epoll)
        #endif
    }

    private func apply(_ change: CurlSocketTable.Change, fd: Int32, what: Int32, shard: Int32, epoll: Int32) {
        #if os(Linux)
        switch change {
        case .none:
            return
        case .remove:
            // The descriptor may be closed already (the kernel then dropped it from the set).
            _ = CCurl_epoll_watch(epoll, fd, CURL_POLL_REMOVE, 1, shard)
        case .add, .modify:
            if CCurl_epoll_watch(epoll, fd, what, change == .modify ? 1 : 0, shard) != 0 { sockets.failed(fd) }
        }
        epollChanges.add(1, ordering: .relaxed)
        #endif
    }

    private func setTimer(shard: Int, timeoutMs: Int) {
        guard timerDeadlines.indices.contains(shard) else { return }
        if timeoutMs < 0 {
            armedTimers.remove(shard)
        } else {
            timerDeadlines[shard] = ContinuousClock.now.advanced(by: .milliseconds(timeoutMs))
            armedTimers.insert(shard)
        }
    }

    private func earliestTimer() -> ContinuousClock.Instant? {
        armedTimers.lazy.map { self.timerDeadlines[$0] }.min()
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = (deadline - .now).components
        guard left.seconds >= 0, left.attoseconds >= 0 else { return 0 }
        // Round up: waking a little late is fine, waking early only to find curl's timer not due is a wasted turn.
        let ms = left.seconds * 1_000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: ms)
    }
}
