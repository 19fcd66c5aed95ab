/// A first-in, first-out queue: the one FIFO of the package (the worker pool's job queue, the curl
/// engine's calls waiting for a transfer slot, the in-memory state store's writes by age).
///
/// `append` and `popFirst` are amortised O(1): the head moves along an array and the consumed
/// front is dropped once it is at least half of the storage. An element taken out of the middle
/// (``removeFirst(where:)``, a cancelled call) leaves a hole that ``popFirst()`` skips, so the
/// elements behind it do not move.
///
/// A value type without a lock: its owner guards it.
public struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0
    /// Elements in the queue (holes not counted).
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }

    /// Adds `element` at the back.
    public mutating func append(_ element: Element) {
        storage.append(element)
        count += 1
    }

    /// The front element, left in the queue; `nil` when the queue is empty.
    public var first: Element? {
        var index = head
        while index < storage.count {
            if let element = storage[index] { return element }
            index += 1
        }
        return nil
    }

    /// Removes and returns the front element; `nil` when the queue is empty.
    public mutating func popFirst() -> Element? {
        while head < storage.count {
            let next = storage[head]
            storage[head] = nil
            head += 1
            if let next {
                count -= 1
                compactIfNeeded()
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
        var index = head
        while index < storage.count {
            if let element = storage[index], try predicate(element) {
                storage[index] = nil
                count -= 1
                if index == head { compactIfNeeded() }
                return element
            }
            index += 1
        }
        return nil
    }

    /// Empties the queue and returns every element, oldest first.
    public mutating func removeAll() -> [Element] {
        let all = storage[head...].compactMap { $0 }
        storage.removeAll()
        head = 0
        count = 0
        return all
    }

    private mutating func compactIfNeeded() {
        if count == 0 {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}

extension FIFO: Sendable where Element: Sendable {}
