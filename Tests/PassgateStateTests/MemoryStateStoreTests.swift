import PassgateCore
import PassgateTestSupport
@testable import PassgateState
import Synchronization
import Testing

/// The in-memory store drops expired entries a few per write, oldest first, instead of sweeping
/// the whole map (a replay cache holds hundreds of thousands of entries).
@Suite("Memory state store")
struct MemoryStateStoreTests {
    @Test("expired entries leave memory as later writes come, at most a few per write, and live ones stay")
    func expiredEntriesLeaveMemory() async throws {
        let clock = ManualClock(milliseconds: 0)
        let store = MemoryStateStore(clock: clock)
        for index in 0..<1_000 { _ = try await store.settle("old-\(index)", value: [1], ttlMs: 1_000, owner: nil) }
        #expect(store.stored.values == 1_000)
        clock.advance(milliseconds: 2000)
        _ = try await store.settle("new-0", value: [2], ttlMs: 1_000, owner: nil)
        // One write removes a bounded number, not the whole backlog.
        #expect(store.stored.values == 1_000 + 1 - MemoryStateStore.expiredPerWrite)
        for index in 1..<100 { _ = try await store.settle("new-\(index)", value: [2], ttlMs: 1_000, owner: nil) }
        #expect(store.stored.values == 100)
        #expect(store.stored.writeRecords == 100)
        #expect(store.count == 100)
        #expect(try await store.get("new-99") == [2])
        #expect(try await store.get("old-999") == nil)
    }

    @Test("a key written again after it expired keeps its new expiry when its first write's record comes off the queue")
    func rewrittenKeyIsKept() async throws {
        let clock = ManualClock(milliseconds: 0)
        let store = MemoryStateStore(clock: clock)
        _ = try await store.settle("k", value: [1], ttlMs: 1_000, owner: nil)
        clock.advance(milliseconds: 500)
        // Live: the first outcome stays, the second is refused and the first handed back.
        #expect(try await store.settle("k", value: [2], ttlMs: 1_000, owner: nil) == [1])
        clock.advance(milliseconds: 600)
        #expect(try await store.settle("k", value: [3], ttlMs: 1_000, owner: nil) == nil)
        clock.advance(milliseconds: 100)
        _ = try await store.settle("other", value: [4], ttlMs: 1_000, owner: nil)
        #expect(try await store.get("k") == [3])
        #expect(store.stored.values == 2)
        clock.advance(milliseconds: 950)
        _ = try await store.settle("third", value: [5], ttlMs: 1_000, owner: nil)
        #expect(try await store.get("k") == nil)
        #expect(store.stored.values == 2)
    }

    @Test("claims: held while the lease runs, abandoned (never taken over) once it lapses, renewed by their owner, gone at the TTL")
    func claimLeases() async throws {
        let clock = ManualClock(milliseconds: 0)
        let store = MemoryStateStore(clock: clock)
        #expect(try await store.claim("t", owner: "a", leaseMs: 100, ttlMs: 1_000) == .claimed)
        #expect(try await store.claim("t", owner: "b", leaseMs: 100, ttlMs: 1_000) == .held)
        #expect(try await store.claim("t", owner: "a", leaseMs: 100, ttlMs: 1_000) == .claimed)
        clock.advance(milliseconds: 150)
        #expect(try await store.claim("t", owner: "b", leaseMs: 100, ttlMs: 1_000) == .abandoned)
        #expect(try await store.renew("t", owner: "a", leaseMs: 100))
        #expect(try await !store.renew("t", owner: "b", leaseMs: 100))
        #expect(try await store.claim("t", owner: "b", leaseMs: 100, ttlMs: 1_000) == .held)
        clock.advance(milliseconds: 1050)
        #expect(try await !store.renew("t", owner: "a", leaseMs: 100))
        #expect(try await store.claim("t", owner: "b", leaseMs: 100, ttlMs: 1_000) == .claimed)
    }

    @Test("settle keeps the first outcome, drops only its owner's claim; a claim then finds the outcome; release frees at once")
    func settleAndRelease() async throws {
        let store = MemoryStateStore(clock: ManualClock(milliseconds: 0))
        #expect(try await store.claim("t", owner: "a", leaseMs: 100, ttlMs: 1_000) == .claimed)
        #expect(try await store.settle("t", value: [1], ttlMs: 1_000, owner: "b") == nil)
        #expect(store.stored.claims == 1)
        #expect(try await store.settle("t", value: [2], ttlMs: 1_000, owner: "a") == [1])
        #expect(store.stored.claims == 0)
        #expect(try await store.claim("t", owner: "c", leaseMs: 100, ttlMs: 1_000) == .stored([1]))
        #expect(try await store.claim("u", owner: "a", leaseMs: 100, ttlMs: 1_000) == .claimed)
        try await store.release("u", owner: "b")
        #expect(try await store.claim("u", owner: "c", leaseMs: 100, ttlMs: 1_000) == .held)
        try await store.release("u", owner: "a")
        #expect(try await store.claim("u", owner: "c", leaseMs: 100, ttlMs: 1_000) == .claimed)
    }

    @Test("claims leave memory as later claims come, like values")
    func claimsLeaveMemory() async throws {
        let clock = ManualClock(milliseconds: 0)
        let store = MemoryStateStore(clock: clock)
        for index in 0..<50 { #expect(try await store.claim("c-\(index)", owner: "a", leaseMs: 50, ttlMs: 100) == .claimed) }
        clock.advance(milliseconds: 200)
        for index in 0..<10 { #expect(try await store.claim("d-\(index)", owner: "a", leaseMs: 50, ttlMs: 100) == .claimed) }
        #expect(store.stored.claims == 10)
        #expect(try await store.claim("c-0", owner: "b", leaseMs: 50, ttlMs: 100) == .claimed)
    }
}
