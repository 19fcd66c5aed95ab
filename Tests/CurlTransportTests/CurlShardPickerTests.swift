import Testing

@testable import CurlTransport

/// Which multi handle a transfer goes on, driven with explicit starts and ends: no curl.
@Suite("Curl shard picker")
struct CurlShardPickerTests {
    let t0 = ContinuousClock.now

    @Test("fills shard 0 up to its capacity before the next shard gets any transfer")
    func fillsInOrder() {
        var picker = CurlShardPicker(shards: 3, capacity: 2)
        #expect((0..<5).map { _ in picker.pick() } == [0, 0, 1, 1, 2])
        #expect(picker.load == [2, 2, 1])
    }

    @Test("a transfer ending frees its shard's slot, and the lowest shard with room is used again")
    func endedFreesLowestShard() {
        var picker = CurlShardPicker(shards: 3, capacity: 2)
        for _ in 0..<4 { _ = picker.pick() }
        picker.ended(0, now: t0)
        #expect(picker.pick() == 0, "shard 0 has room again: its connections are reused first")
        picker.ended(1, now: t0)
        picker.ended(1, now: t0)
        #expect(picker.load == [2, 0, 0])
        #expect(picker.pick() == 1)
    }

    @Test("when every shard is full the least loaded takes the transfer, the lowest on a tie")
    func overflowGoesToLeastLoaded() {
        var picker = CurlShardPicker(shards: 2, capacity: 1)
        #expect(picker.pick() == 0)
        #expect(picker.pick() == 1)
        #expect(picker.pick() == 0, "both at capacity and equal: the lowest")
        #expect(picker.pick() == 1)
        picker.ended(0, now: t0)
        picker.ended(0, now: t0)
        #expect(picker.load == [0, 2])
        #expect(picker.pick() == 0)
        #expect(picker.pick() == 0, "shard 0 is at capacity but still the least loaded")
        #expect(picker.load == [2, 2])
    }

    @Test("one shard takes every transfer; an end reported twice or for an unknown shard changes nothing")
    func singleShardAndStrayEnds() {
        var picker = CurlShardPicker(shards: 1, capacity: 64)
        for _ in 0..<100 { #expect(picker.pick() == 0) }
        #expect(picker.load == [100])
        picker.ended(5, now: t0)
        picker.ended(-1, now: t0)
        #expect(picker.load == [100])
        var empty = CurlShardPicker(shards: 2, capacity: 4)
        empty.ended(1, now: t0)
        #expect(empty.load == [0, 0], "never below zero")
    }

    @Test("shards needed: one per capacity of allowed transfers, rounded up, at least one, at most the limit")
    func shardCount() {
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 1, capacity: 64, limit: 32) == 1)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 64, capacity: 64, limit: 32) == 1)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 65, capacity: 64, limit: 32) == 2)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 256, capacity: 64, limit: 32) == 4)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 2_048, capacity: 64, limit: 32) == 32)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 100_000, capacity: 64, limit: 32) == 32)
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 0, capacity: 0, limit: 0) == 1)
    }

    @Test("a shard after the first is due for renewal once it has run no transfer for the idle age, and reported once")
    func idleShardsAreRenewedOnce() {
        var picker = CurlShardPicker(shards: 3, capacity: 1)
        #expect([picker.pick(), picker.pick()] == [0, 1])
        #expect(picker.shardsToRenew(now: t0 + .seconds(100), idleFor: .seconds(30)) == [], "both still run a transfer")
        picker.ended(1, now: t0)
        picker.ended(0, now: t0)
        #expect(picker.shardsToRenew(now: t0 + .milliseconds(29_999), idleFor: .seconds(30)) == [])
        #expect(picker.shardsToRenew(now: t0 + .seconds(30), idleFor: .seconds(30)) == [1], "never shard 0, never the unused shard 2")
        #expect(picker.shardsToRenew(now: t0 + .seconds(90), idleFor: .seconds(30)) == [], "reported once")
    }

    @Test("a transfer starting on an idle shard cancels its renewal; the clock restarts when it ends")
    func newTransferCancelsRenewal() {
        var picker = CurlShardPicker(shards: 2, capacity: 1)
        #expect([picker.pick(), picker.pick()] == [0, 1])
        picker.ended(1, now: t0)
        picker.ended(0, now: t0)
        #expect([picker.pick(), picker.pick()] == [0, 1])
        picker.ended(0, now: t0 + .seconds(20))
        #expect(picker.shardsToRenew(now: t0 + .seconds(40), idleFor: .seconds(30)) == [], "shard 1 runs a transfer")
        picker.ended(1, now: t0 + .seconds(25))
        #expect(picker.shardsToRenew(now: t0 + .seconds(54), idleFor: .seconds(30)) == [])
        #expect(picker.shardsToRenew(now: t0 + .seconds(55), idleFor: .seconds(30)) == [1])
    }
}

/// The bit set behind the picker's busy and idle shards and the event loop's armed timers.
@Suite("Curl shard set")
struct CurlShardSetTests {
    @Test("holds indices 0 to 63, iterates the members in ascending order, and forgets removed ones")
    func membersInOrder() {
        var set = CurlShardSet()
        #expect(set.isEmpty)
        for shard in [63, 5, 0, 31, 5] { set.insert(shard) }
        #expect(Array(set) == [0, 5, 31, 63])
        set.remove(5)
        set.remove(7)
        #expect(Array(set) == [0, 31, 63])
        #expect(set.contains(63) && set.contains(0) && !set.contains(5))
        #expect(!set.contains(-1) && !set.contains(64), "out of range is never a member")
        for shard in [0, 31, 63] { set.remove(shard) }
        #expect(set.isEmpty)
    }

    @Test("removing the current member while iterating still visits every member once")
    func removalDuringIteration() {
        var set = CurlShardSet()
        for shard in 0..<64 { set.insert(shard) }
        var seen: [Int] = []
        for shard in set {
            set.remove(shard)
            seen.append(shard)
        }
        #expect(seen == Array(0..<64))
        #expect(set.isEmpty)
    }
}

extension CurlShardPickerTests {
    @Test("busy lists exactly the shards running transfers, so a turn visits only those")
    func busyFollowsLoad() {
        var picker = CurlShardPicker(shards: 4, capacity: 1)
        #expect(Array(picker.busy) == [])
        #expect([picker.pick(), picker.pick(), picker.pick()] == [0, 1, 2])
        #expect(Array(picker.busy) == [0, 1, 2])
        picker.ended(1, now: t0)
        #expect(Array(picker.busy) == [0, 2])
        #expect(picker.pick() == 1)
        #expect(picker.pick() == 3)
        #expect(picker.pick() == 0, "all full: the least loaded, lowest first")
        picker.ended(0, now: t0)
        #expect(Array(picker.busy) == [0, 1, 2, 3], "shard 0 still runs one")
        for shard in [0, 1, 2, 3] { picker.ended(shard, now: t0) }
        #expect(picker.busy.isEmpty)
    }

    @Test("more shards than a set can hold are clamped to 64")
    func clampedToSixtyFour() {
        var picker = CurlShardPicker(shards: 500, capacity: 1)
        #expect(picker.load.count == CurlShardPicker.maxShards)
        for _ in 0..<64 { _ = picker.pick() }
        #expect(Array(picker.busy) == Array(0..<64))
        #expect(CurlShardPicker.shardCount(maxConcurrentTransfers: 100_000, capacity: 1, limit: 1_000) == 64)
    }
}
