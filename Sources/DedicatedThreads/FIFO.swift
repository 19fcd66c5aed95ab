/// A first-in, first-out queue: the one FIFO of the package (the worker pool's job queue, the curl
/// engine's calls waiting for a transfer slot, the in-memory state store's writes by age).
///
/// A ring buffer: `append` and `popFirst` are O(1) and move no other element. The storage doubles
/// when full (the only time elements are copied, as the queue reaches a new size) and is kept when
/// the queue empties. A queue that slid along an array and dropped its consumed front from time to
/// time moved every element behind the head at once: with the state store's hundreds of thousands
/// of writes, milliseconds under its lock (bench/decisions/0019-queues-without-stalls.md).
///
/// An element taken out of the middle (``removeFirst(where:)``, a cancelled call) leaves a hole
/// that ``popFirst()`` skips, so the elements behind it do not move.
///
/// A value type without a lock: its owner guards it.
public struct FIFO<Element> {
    /// The ring: a power-of-two number of slots, or none. The queue occupies `span` slots from
    /// `head`, wrapping round; holes are `nil`, and so is every slot outside the span.
    private var slots: [Element?] = []
    private var head = 0
    private var span = 0
    /// Elements in the queue (holes not counted).
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }

    /// Adds `element` at the back.
    public mutating func append(_ element: Element) {
        if span == slots.count { grow() }
        slots[index(span)] = element
        span += 1
        count += 1
    }

    /// The front element, left in the queue; `nil` when the queue is empty.
    public var first: Element? {
        for offset in 0..<span {
            if let element = slots[index(offset)] { return element }
        }
        return nil
    }

    /// Removes and returns the front element; `nil` when the queue is empty.
    public mutating func popFirst() -> Element? {
        while span > 0 {
            let next = slots[head].take()
            head = index(1)
            span -= 1
            if let next {
                count -= 1
                // Only holes left, all `nil` already: the span can end here.
                if count == 0 { span = 0 }
                return next
            }
        }
        return nil
    }

    /// Removes and returns up to `limit` elements from the front, oldest first.
    public mutating func popFirst(upTo limit: Int) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(Swift.min(Swift.max(0, limit), count))
        while taken.count < limit, let next = popFirst() { taken.append(next) }
        return taken
    }

    /// Removes and returns the frontmost element that satisfies `predicate`, leaving the others
    /// in order; `nil` when none does.
    public mutating func removeFirst(where predicate: (Element) throws -> Bool) rethrows -> Element? {
        for offset in 0..<span {
            let position = index(offset)
            if let element = slots[position], try predicate(element) {
                slots[position] = nil
                count -= 1
                if count == 0 { span = 0 }
                return element
            }
        }
        return nil
    }

    /// Empties the queue and returns every element, oldest first.
    public mutating func removeAll() -> [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        for offset in 0..<span {
            if let element = slots[index(offset)] { all.append(element) }
        }
        slots = []
        head = 0
        span = 0
        count = 0
        return all
    }

    /// The slot `offset` places behind the head.
    @inline(__always)
    private func index(_ offset: Int) -> Int {
        (head &+ offset) & (slots.count &- 1)
    }

    /// Twice the slots (16 at first), the queue moved to the front of them in order.
    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: Swift.max(16, slots.count * 2))
        for offset in 0..<span { larger[offset] = slots[index(offset)].take() }
        slots = larger
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}
