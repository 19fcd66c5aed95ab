import Synchronization

/// Holds requests until the test opens it; counts the ones it holds.
final class Gate: Sendable {
    private struct State {
        var open = false
        var held = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.held += 1
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
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

    /// Returns once `count` requests are held; throws after 10 s without them.
    func waitUntilHeld(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while state.withLock({ $0.held }) < count {
            guard ContinuousClock.now < deadline else { throw NotHeld(count: count) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    struct NotHeld: Error {
        let count: Int
    }
}
