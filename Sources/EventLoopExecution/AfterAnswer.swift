import Synchronization

/// Bookkeeping a request leaves for after its answer is on the wire: its access line, its
/// metrics, its audit record.
///
/// None of it changes the answer, yet done before the answer is written it lies between the
/// carrier's reply and the client's: with one request at a time, on the event loop, that is
/// all on the latency the client sees (bench/decisions/0018-answer-before-bookkeeping.md). ``HTTP1DispatchChannel`` gives
/// each request's task a list; ``schedule(_:)`` adds to it. When the task ends on its event loop,
/// the loop writes and flushes the answer first and then runs the list, in the same loop job, so
/// the connection's `finished` (what the server's shutdown waits for) never comes before it. When
/// the task ends on the pool, the list runs there before the answer is handed to the loop, as if
/// nothing had been deferred: run on the loop after the write, it would move that work from the
/// pool onto the loop under load.
///
/// Work scheduled where no list is given (a request not served by ``HTTP1DispatchChannel``, as
/// in router tests; code outside a request), or after the list ran (a shared carrier call that
/// outlives the request that started it), runs at once: nothing scheduled is ever dropped.
public enum AfterAnswer {
    /// The running request's list, if it is answered through ``HTTP1DispatchChannel``.
    @TaskLocal static var current: Work?

    /// Runs `work` once the current request's answer is written, or now (see ``AfterAnswer``).
    /// Work runs in the order it was scheduled; it must not block or throw.
    public static func schedule(_ work: @escaping @Sendable () -> Void) {
        guard let list = current, list.add(work) else {
            work()
            return
        }
    }

    /// One request's deferred work: open until ``run()``, after which ``add(_:)`` refuses.
    final class Work: Sendable {
        private let state = Mutex<[@Sendable () -> Void]?>([])

        init() {}

        /// Keeps `work` for ``run()``; `false` once the list has run (the caller runs it then).
        func add(_ work: @escaping @Sendable () -> Void) -> Bool {
            state.withLock { items in
                guard items != nil else { return false }
                items!.append(work)
                return true
            }
        }

        /// Runs what was scheduled, outside the lock, and closes the list. Once.
        func run() {
            guard let items = state.withLock({ items -> [@Sendable () -> Void]? in
                defer { items = nil }
                return items
            }) else { return }
            for item in items { item() }
        }
    }
}
