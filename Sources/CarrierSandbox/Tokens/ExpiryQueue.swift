/// Keys in insertion order with a deadline each, so expired state is dropped lazily in O(1)
/// amortised per entry. Deadlines are a fixed offset from insertion time, so the queue is in
/// deadline order (a clock set backwards only delays eviction).
struct ExpiryQueue<Key> {
    private var entries: [(deadline: Int64, key: Key)] = []
    private var head = 0

    var count: Int { entries.count - head }

    mutating func append(_ key: Key, deadline: Int64) {
        entries.append((deadline, key))
    }

    /// Removes the entries whose deadline is at or before `now`, oldest first, handing each to `evict`.
    mutating func removeExpired(now: Int64, _ evict: (Key) -> Void) {
        while head < entries.count, entries[head].deadline <= now {
            evict(entries[head].key)
            head += 1
        }
        // Compact once the dead prefix dominates, so memory follows the live entries.
        if head > 1024, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        } else if head == entries.count {
            entries.removeAll(keepingCapacity: entries.count < 4096)
            head = 0
        }
    }
}
