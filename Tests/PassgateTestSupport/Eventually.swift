/// Polls `condition` until it holds or `timeout` passes; returns whether it held. For state that
/// other tasks, threads or processes change (a server's counters, a queue's length).
public func eventually(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
