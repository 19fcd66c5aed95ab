import CCurl

/// How the engine thread sleeps until a socket, curl's timer or a caller needs it, and how it then
/// lets libcurl make progress.
///
/// - `sockets` (Linux, the default): `curl_multi_socket_action` driven by epoll. curl names the
///   sockets to watch through its socket callback and its next deadline through its timer
///   callback; a turn costs work in proportion to the sockets that *have* events.
/// - `polling` (other systems, or when epoll cannot be set up, or when configured): the portable
///   `curl_multi_perform` + `curl_multi_poll`. libcurl 7.88 then runs every transfer and polls each
///   transfer's socket on every turn, so a turn costs syscalls in proportion to the calls in flight,
///   which dominates the engine thread with many calls open against a slow carrier.
///
/// Confined to the engine thread, except ``wake()``, which any thread may call while the engine's
/// lifecycle is not `.stopped` (the engine checks that under its lock, as it did for
/// `curl_multi_wakeup`). The callbacks receive `self` unretained: the engine owns this object for
/// longer than the multi handle lives, and curl calls them only from inside calls the engine thread
/// makes.
final class CurlEventLoop {
    enum Mode: Equatable {
        case sockets(epoll: Int32, wakeup: Int32)
        case polling
    }

    let multi: UnsafeMutableRawPointer
    let mode: Mode
    /// Descriptors registered with epoll, so the socket callback knows ADD from MOD.
    private var watched = Set<Int32>()
    /// The socket curl last named for each easy handle, for ``nudge(_:)``.
    private var socketOfHandle: [UnsafeMutableRawPointer: Int32] = [:]
    /// When curl next wants `CURL_SOCKET_TIMEOUT`; `nil` when it has no timer.
    private var timerDeadline: ContinuousClock.Instant?
    private var readyFDs = [Int32](repeating: 0, count: 256)
    private var readyActions = [Int32](repeating: 0, count: 256)

    init(multi: UnsafeMutableRawPointer, preferSockets: Bool) {
        self.multi = multi
        self.mode = preferSockets ? Self.makeSocketMode() : .polling
        guard case .sockets = mode else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = CCurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        _ = CCurl_multi_setopt_socket_callback(multi) { easy, fd, what, context, _ in
            guard let context else { return -1 }
            Unmanaged<CurlEventLoop>.fromOpaque(context).takeUnretainedValue().watch(fd: Int32(fd), what: what, easy: easy)
            return 0
        }
        _ = CCurl_multi_setopt_timer_callback(multi) { _, timeoutMs, context in
            guard let context else { return -1 }
            Unmanaged<CurlEventLoop>.fromOpaque(context).takeUnretainedValue().setTimer(timeoutMs: timeoutMs)
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
            curl_multi_wakeup(multi)
        }
    }

    /// Waits for sockets, curl's timer, ``wake()`` or `maxWaitMs` (0: do not wait), then lets curl
    /// act on whatever is ready. Finished transfers are then read with `curl_multi_info_read`.
    func turn(maxWaitMs: Int32) {
        var running: Int32 = 0
        switch mode {
        case .polling:
            if maxWaitMs > 0 { _ = curl_multi_poll(multi, nil, 0, maxWaitMs, nil) }
            _ = curl_multi_perform(multi, &running)
        case .sockets(let epoll, let wakeup):
            #if os(Linux)
            var timeout = maxWaitMs
            if let deadline = timerDeadline { timeout = min(timeout, Self.milliseconds(until: deadline)) }
            let capacity = Int32(readyFDs.count)
            let count = readyFDs.withUnsafeMutableBufferPointer { fds in
                readyActions.withUnsafeMutableBufferPointer { actions in
                    CCurl_epoll_wait(epoll, fds.baseAddress, actions.baseAddress, capacity, timeout)
                }
            }
            for index in 0..<Int(max(0, count)) {
                if readyFDs[index] == wakeup {
                    CCurl_wakeup_drain(wakeup)
                } else {
                    _ = CCurl_multi_socket_action(multi, readyFDs[index], readyActions[index], &running)
                }
            }
            if let deadline = timerDeadline, deadline <= .now {
                timerDeadline = nil
                _ = CCurl_multi_socket_action(multi, -1, 0, &running)
                // curl calls the timer callback only when its next expiry *changes*. If this
                // firing ran nothing (it came a little early, say), the expiry is unchanged and no
                // callback comes: ask curl for its next expiry rather than lose the timer. (Timers
                // curl drops itself are the watchdog's job, CurlEngine+Watchdog.swift.)
                if timerDeadline == nil {
                    var next = -1
                    if curl_multi_timeout(multi, &next) == CURLM_OK { setTimer(timeoutMs: next) }
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
    func nudge(_ easy: UnsafeMutableRawPointer) -> Bool {
        guard let fd = socketOfHandle[easy] else { return false }
        var running: Int32 = 0
        _ = CCurl_multi_socket_action(multi, fd, 0, &running)
        return true
    }

    /// Forgets a handle leaving the multi handle (handles are reused for other transfers).
    func forget(_ easy: UnsafeMutableRawPointer) {
        socketOfHandle[easy] = nil
    }

    /// Releases the epoll and wake-up descriptors. Call after `curl_multi_cleanup`, once no thread
    /// can call ``wake()`` any more.
    func close() {
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

    private func watch(fd: Int32, what: Int32, easy: UnsafeMutableRawPointer?) {
        #if os(Linux)
        guard case .sockets(let epoll, _) = mode else { return }
        if let easy { socketOfHandle[easy] = what == CURL_POLL_REMOVE ? nil : fd }
        if what == CURL_POLL_REMOVE {
            // The descriptor may be closed already (the kernel then dropped it from the set).
            _ = CCurl_epoll_watch(epoll, fd, what, 1)
            watched.remove(fd)
        } else if CCurl_epoll_watch(epoll, fd, what, watched.contains(fd) ? 1 : 0) == 0 {
            watched.insert(fd)
        }
        #endif
    }

    private func setTimer(timeoutMs: Int) {
        timerDeadline = timeoutMs < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(timeoutMs))
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = (deadline - .now).components
        guard left.seconds >= 0, left.attoseconds >= 0 else { return 0 }
        // Round up: waking a little late is fine, waking early only to find curl's timer not due is a wasted turn.
        let ms = left.seconds * 1_000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: ms)
    }
}

