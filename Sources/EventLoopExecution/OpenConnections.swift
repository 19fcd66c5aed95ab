import Synchronization

/// Counts a listener's open connections against its limit, from every event loop at once.
public final class OpenConnections: Sendable {
    /// Connections a listener holds at most.
    public let limit: Int
    private let count = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Connections open now.
    public var current: Int { count.load(ordering: .relaxed) }

    /// Counts one more connection; `false` (and not counted) if the listener holds its limit.
    func open() -> Bool {
        guard count.wrappingAdd(1, ordering: .relaxed).newValue > limit else { return true }
        count.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    /// A connection counted by ``open()`` has closed.
    func closed() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }
}
