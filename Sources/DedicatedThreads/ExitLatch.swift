import ServiceLifecycle
import Synchronization

/// The lifecycle helper every owner of dedicated threads shares: it opens once all of its threads
/// have exited, and ``wait()`` returns then. ``runService(onGracefulShutdown:onCancellation:)`` is
/// the body of such an owner's `Service.run()`: tell the threads to stop, then wait for them.
///
/// Used by ``BlockingWorkerPool`` (the Redis workers, the audit writer) and by the curl engine,
/// whose thread waits in epoll or `curl_multi_poll` rather than on a condition variable and so
/// runs a loop of its own. Waiters are resumed outside the lock, by whichever thread exits last.
public final class ExitLatch: Sendable {
    private struct State {
        var remaining: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    /// A latch for `threads` threads; with 0 it is open from the start.
    public init(threads: Int) {
        state = Mutex(State(remaining: max(0, threads)))
    }

    /// One of the threads has exited (or will never start). The last call opens the latch.
    public func threadExited() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.remaining > 0 else { return [] }
            state.remaining -= 1
            guard state.remaining == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether every thread has exited.
    public var isOpen: Bool { state.withLock { $0.remaining == 0 } }

    /// Returns once every thread has exited.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                guard state.remaining > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    /// Waits until every thread has exited, calling `onGracefulShutdown` when the service group
    /// shuts down gracefully and `onCancellation` when the task is cancelled (both may be called,
    /// each at most once). Either must make the threads exit, sooner or later.
    public func runService(
        onGracefulShutdown: @escaping @Sendable () -> Void, onCancellation: @escaping @Sendable () -> Void
    ) async {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await wait()
            } onCancel: {
                onCancellation()
            }
        } onGracefulShutdown: {
            onGracefulShutdown()
        }
    }
}
