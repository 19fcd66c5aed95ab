import Synchronization

/// Holds requests until the test opens it; counts the ones it holds, and tells a test waiting for
/// a count when it is reached (no polling).
final class Gate: Sendable {
    private struct State {
        var open = false
        var held = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var watching: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, reached) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.held += 1
                let held = state.held
                let reached = state.watching.filter { $0.count <= held }.map(\.continuation)
                state.watching.removeAll { $0.count <= held }
                if state.open { return (true, reached) }
                state.waiting.append(continuation)
                return (false, reached)
            }
            for watcher in reached { watcher.resume() }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many requests it has held so far.
    var held: Int { state.withLock { $0.held } }

    /// Returns once `count` requests are held.
    func waitUntilHeld(_ count: Int) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                guard state.held < count else { return true }
                state.watching.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
