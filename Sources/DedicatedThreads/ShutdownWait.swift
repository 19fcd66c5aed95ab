import ServiceLifecycle
import Synchronization

/// Waits for the end of a service's life: the service group's graceful shutdown, or the task's
/// cancellation, whichever comes first (also when it came before the call).
///
/// ServiceLifecycle's own `gracefulShutdown()` learns of either through an unstructured `Task`
/// that must then get a turn on Swift's global executor. With that executor busy (a loaded pool,
/// or a test run's hundreds of tests) the turn came more than five seconds late, and a service
/// group that cancelled its services after one failed (a listener that could not bind) crashed
/// in its cancellation timeout, still waiting for two services parked there. Here the handler
/// that learns of the shutdown or the cancellation resumes the waiter itself, outside the lock.
public enum ShutdownWait {
    /// What ended the wait.
    public enum Reason: Sendable, Equatable {
        case gracefulShutdown
        case cancelled
    }

    /// Returns when the service group running the caller begins a graceful shutdown, or when the
    /// calling task is cancelled. Outside a service group only cancellation ends it.
    public static func untilShutdown() async -> Reason {
        let waiter = Waiter()
        return await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Reason, Never>) in
                    waiter.wait(continuation)
                }
            } onCancel: {
                waiter.finish(.cancelled)
            }
        } onGracefulShutdown: {
            waiter.finish(.gracefulShutdown)
        }
    }

    /// The thin owner of one wait's ``State``: feeds it under its lock, resumes outside it.
    private final class Waiter: Sendable {
        private let state = Mutex(State<CheckedContinuation<Reason, Never>>())

        func wait(_ continuation: CheckedContinuation<Reason, Never>) {
            if let reason = state.withLock({ $0.wait(continuation) }) { continuation.resume(returning: reason) }
        }

        func finish(_ reason: Reason) {
            if let continuation = state.withLock({ $0.finish(reason) }) { continuation.resume(returning: reason) }
        }
    }

    /// One wait as a state machine: the waiter may arrive before or after the first reason, and
    /// later reasons change nothing. Generic over the waiter so that its tests need no task.
    public struct State<Waiting>: ~Copyable {
        private enum Phase {
            case idle
            case waiting(Waiting)
            case finished(Reason)
            case resumed
        }

        private var phase = Phase.idle

        public init() {}

        /// The waiter arrives: the reason to resume it with at once, or `nil` if it must wait.
        public mutating func wait(_ waiting: Waiting) -> Reason? {
            switch phase {
            case .idle:
                phase = .waiting(waiting)
                return nil
            case .finished(let reason):
                phase = .resumed
                return reason
            case .waiting, .resumed:
                preconditionFailure("ShutdownWait: a second waiter")
            }
        }

        /// A reason arrives: the waiter to resume with it, if one waits and none was resumed.
        public mutating func finish(_ reason: Reason) -> Waiting? {
            switch phase {
            case .idle:
                phase = .finished(reason)
                return nil
            case .waiting(let waiting):
                phase = .resumed
                return waiting
            case .finished, .resumed:
                return nil
            }
        }
    }
}
