/// Which of the engine's multi handles (shards) a new transfer goes on, as a value: the engine
/// thread owns it (no lock) and reports every transfer that starts and ends.
///
/// Why more than one multi handle: libcurl 7.88 keeps one list of connections per host and walks
/// it twice for every transfer. Looking for a connection to reuse (`ConnectionExists`), it walks
/// past every connection busy with another transfer until it meets an idle one; and
/// `curl_multi_remove_handle` walks the whole cache (`Curl_conncache_foreach`) until it meets the
/// connection the transfer last used. With 1,024 calls held open against one carrier, that is
/// hundreds of connections visited per call, each a cache miss, and libcurl's own share of the
/// CPU per call tripled. Each multi handle has its own connection cache, so spreading the
/// transfers over shards of at most ``capacity`` bounds both walks.
///
/// Fill first: a transfer goes on the lowest shard running fewer than ``capacity`` transfers.
/// Under light load every call therefore shares shard 0's connections, exactly as with a single
/// multi handle, and further shards (each opening its own connections) come in only beyond
/// ``capacity`` concurrent transfers. When every shard is full, the least loaded one takes it.
///
/// After a burst the further shards sit idle with their connections open, and libcurl closes a
/// multi handle's stale connections only while it runs transfers. So a shard other than the first
/// that has run none for the keep-alive age is due for renewal (``shardsToRenew(now:idleFor:)``):
/// the engine replaces its multi handle, which closes those connections.
struct CurlShardPicker {
    /// Shards at most: the sets of busy and idle shards are bits of one `UInt64`.
    static let maxShards = 64

    /// Transfers a shard takes before the next one is used.
    let capacity: Int
    /// Transfers running on each shard.
    private(set) var load: [Int]
    /// The shards running at least one transfer. The engine's per-turn work (collecting finished
    /// transfers) visits these only, so a quiet engine with many shards costs what one with a
    /// single shard does.
    private(set) var busy = CurlShardSet()
    /// The shards after the first that have run transfers and run none now, waiting for renewal.
    private var idle = CurlShardSet()
    /// Since when each shard in ``idle`` has had no transfer.
    private var idleSince: [ContinuousClock.Instant]

    /// `shards` is clamped to 1...``maxShards``.
    init(shards: Int, capacity: Int) {
        let count = min(Self.maxShards, max(1, shards))
        self.capacity = max(1, capacity)
        self.load = Array(repeating: 0, count: count)
        self.idleSince = Array(repeating: .now, count: count)
    }

    /// How many shards an engine allowing `maxConcurrentTransfers` needs so that none runs more
    /// than `capacity` transfers, at most `limit` (and at most ``maxShards``).
    static func shardCount(maxConcurrentTransfers: Int, capacity: Int, limit: Int) -> Int {
        let capacity = max(1, capacity)
        let needed = (max(1, maxConcurrentTransfers) + capacity - 1) / capacity
        return min(max(1, min(limit, maxShards)), needed)
    }

    /// The shard for a transfer that starts now; counted as running there.
    mutating func pick() -> Int {
        var chosen = 0
        for index in load.indices {
            if load[index] < capacity {
                chosen = index
                break
            }
            if load[index] < load[chosen] { chosen = index }
        }
        load[chosen] += 1
        busy.insert(chosen)
        idle.remove(chosen)
        return chosen
    }

    /// A transfer on `shard` ended (finished, failed, cancelled or abandoned) at `now`.
    mutating func ended(_ shard: Int, now: ContinuousClock.Instant) {
        guard load.indices.contains(shard), load[shard] > 0 else { return }
        load[shard] -= 1
        guard load[shard] == 0 else { return }
        busy.remove(shard)
        if shard > 0 {
            idle.insert(shard)
            idleSince[shard] = now
        }
    }

    /// The shards after the first that have run transfers but none for `idleFor` up to `now`:
    /// renew them. Each is reported once, until it runs a transfer again. Costs nothing while no
    /// shard waits (every turn asks).
    mutating func shardsToRenew(now: ContinuousClock.Instant, idleFor: Duration) -> [Int] {
        guard !idle.isEmpty else { return [] }
        var due: [Int] = []
        for index in idle where now - idleSince[index] >= idleFor {
            idle.remove(index)
            due.append(index)
        }
        return due
    }
}

/// A set of shard indices below 64 as the bits of one word: membership, insertion and removal
/// without allocation, and iteration over the members only, in ascending order.
struct CurlShardSet: Sequence, Equatable {
    private var bits: UInt64 = 0

    var isEmpty: Bool { bits == 0 }

    mutating func insert(_ shard: Int) { bits |= 1 << UInt64(shard) }

    mutating func remove(_ shard: Int) { bits &= ~(1 << UInt64(shard)) }

    func contains(_ shard: Int) -> Bool { shard >= 0 && shard < 64 && bits & (1 << UInt64(shard)) != 0 }

    func makeIterator() -> Iterator { Iterator(bits: bits) }

    struct Iterator: IteratorProtocol {
        var bits: UInt64

        mutating func next() -> Int? {
            guard bits != 0 else { return nil }
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            return index
        }
    }
}
