@testable import PassgateState
import Synchronization
import Testing

/// The in-memory store drops expired entries a few per write, oldest first, instead of sweeping
/// the whole map (a replay cache holds hundreds of thousands of entries).
@Suite("Memory state store")
struct MemoryStateStoreTests {
    @Test("expired entries leave memory as later writes come, at most a few per write, and live ones stay")
    func expiredEntriesLeaveMemory() async throws {
        let clock = Mutex<Int64>(0)
        let store = MemoryStateStore(nowMilliseconds: { clock.withLock { $0 } })
        for index in 0..<1_000 { try await store.set("old-\(index)", value: [1], ttlMs: 1_000) }
        #expect(store.stored.values == 1_000)
        clock.withLock { $0 = 2_000 }
        try await store.set("new-0", value: [2], ttlMs: 1_000)
        // One write removes a bounded number, not the whole backlog.
        #expect(store.stored.values == 1_000 + 1 - MemoryStateStore.expiredPerWrite)
        for index in 1..<100 { try await store.set("new-\(index)", value: [2], ttlMs: 1_000) }
        #expect(store.stored.values == 100)
        #expect(store.stored.writeRecords == 100)
        #expect(store.count == 100)
        #expect(try await store.get("new-99") == [2])
        #expect(try await store.get("old-999") == nil)
    }

    @Test("a key written again keeps its later expiry when its first write's record comes off the queue")
    func renewedKeyIsKept() async throws {
        let clock = Mutex<Int64>(0)
        let store = MemoryStateStore(nowMilliseconds: { clock.withLock { $0 } })
        try await store.set("k", value: [1], ttlMs: 1_000)
        clock.withLock { $0 = 500 }
        try await store.set("k", value: [2], ttlMs: 1_000)
        clock.withLock { $0 = 1_200 }
        try await store.set("other", value: [3], ttlMs: 1_000)
        #expect(try await store.get("k") == [2])
        #expect(store.stored.values == 2)
        clock.withLock { $0 = 1_600 }
        try await store.set("third", value: [4], ttlMs: 1_000)
        #expect(try await store.get("k") == nil)
        #expect(store.stored.values == 2)
    }

    @Test("claims expire and leave memory the same way; a released claim can be taken again at once")
    func claimsExpire() async throws {
        let clock = Mutex<Int64>(0)
        let store = MemoryStateStore(nowMilliseconds: { clock.withLock { $0 } })
        for index in 0..<50 { #expect(try await store.claim("c-\(index)", owner: "a", ttlMs: 100)) }
        #expect(try await store.claim("c-0", owner: "b", ttlMs: 100) == false)
        try await store.release("c-1", owner: "a")
        #expect(try await store.claim("c-1", owner: "b", ttlMs: 100))
        clock.withLock { $0 = 200 }
        for index in 0..<10 { #expect(try await store.claim("d-\(index)", owner: "a", ttlMs: 100)) }
        #expect(store.stored.claims == 10)
        #expect(try await store.claim("c-0", owner: "b", ttlMs: 100))
    }
}
