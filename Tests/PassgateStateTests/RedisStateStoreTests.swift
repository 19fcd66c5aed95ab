import Foundation
import OpenSSLCrypto
import PassgateState
import PassgateTestSupport
import Testing

/// The Redis store against a real `redis-server`; every test starts its own on its own port.
@Suite("RedisStateStore", .serialized)
struct RedisStateStoreTests {
    let value = Array("{\"outcome\":\"success\",\"msisdn\":\"+8613800138000\"}".utf8)

    @Test("settle then get returns the value; a second settle keeps the first; a missing key is nil; ping answers")
    func roundTrip() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                #expect(try await store.get("absent") == nil)
                #expect(try await store.settle("k1", value: value, ttlMs: 120_000, owner: nil) == nil)
                #expect(try await store.get("k1") == value)
                // The first outcome stays: a later one is refused and the stored one returned.
                #expect(try await store.settle("k1", value: [], ttlMs: 120_000, owner: nil) == value)
                #expect(try await store.get("k1") == value)
                let binary = (0...255).map(UInt8.init)
                _ = try await store.settle("k2", value: binary, ttlMs: 120_000, owner: nil)
                #expect(try await store.get("k2") == binary)
            }
        }
    }

    @Test("values in Redis are encrypted, and keys carry the replay prefix")
    func encryptedAtRest() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                _ = try await store.settle("abc", value: value, ttlMs: 120_000, owner: nil)
                let raw = try server.cli("GET", "passgate:replay:abc")
                #expect(!raw.isEmpty)
                #expect(!raw.containsSubsequence(Array("8613800138000".utf8)))
                #expect(!raw.containsSubsequence(Array("outcome".utf8)))
                #expect(try server.cliText("STRLEN", "passgate:replay:abc") == String(value.count + AESGCM.overhead))
                let ttl = try #require(Int(try server.cliText("PTTL", "passgate:replay:abc")))
                #expect(ttl > 0 && ttl <= 120_000)
            }
        }
    }

    @Test("a value sealed under another encryption key reads as .corrupt")
    func wrongKeyIsCorrupt() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                _ = try await store.settle("k", value: value, ttlMs: 120_000, owner: nil)
            }
            try await withStore(server) { other in
                let error = await expectStateError(.corrupt) { try await other.get("k") }
                #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
                #expect(error?.message.contains("8613800138000") == false)
            }
        }
    }

    @Test("a value moved to another key does not open (the key is associated data)")
    func valueBoundToKey() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                _ = try await store.settle("a", value: value, ttlMs: 120_000, owner: nil)
                #expect(try server.cliText("COPY", "passgate:replay:a", "passgate:replay:b") == "1")
                await expectStateError(.corrupt) { try await store.get("b") }
                #expect(try await store.get("a") == value)
            }
        }
    }

    @Test("garbage or a wrong type under a replay key is .corrupt")
    func garbageIsCorrupt() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                _ = try server.cli("SET", "passgate:replay:short", "x")
                await expectStateError(.corrupt) { try await store.get("short") }
                _ = try server.cli("SET", "passgate:replay:long", String(repeating: "y", count: 64))
                await expectStateError(.corrupt) { try await store.get("long") }
                _ = try server.cli("LPUSH", "passgate:replay:list", "z")
                let error = await expectStateError(.corrupt) { try await store.get("list") }
                #expect(error?.message.contains("WRONGTYPE") == true)
            }
        }
    }

    @Test("values expire after their TTL")
    func ttlExpiry() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                _ = try await store.settle("long", value: value, ttlMs: 60_000, owner: nil)
                _ = try await store.settle("short", value: value, ttlMs: 300, owner: nil)
                // The lifetimes reached Redis in milliseconds, whatever the machine's speed: at most
                // what was asked is left, and never "no expiry" (-1); -2 is "already expired".
                let short = try #require(Int(try server.cliText("PTTL", "passgate:replay:short")))
                #expect(short <= 300 && short != -1, "PTTL \(short)")
                let long = try #require(Int(try server.cliText("PTTL", "passgate:replay:long")))
                #expect(long > 300 && long <= 60_000, "PTTL \(long)")
                #expect(await eventually { (try? await store.get("short")) == .some(nil) }, "the short value expires")
                #expect(try await store.get("long") == value)
            }
        }
    }

    @Test("claim: one owner at a time; the owner's own claim renews; release only by the owner")
    func claimSemantics() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                #expect(try await store.claim("t", owner: "A", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                #expect(try await store.claim("t", owner: "B", leaseMs: 60_000, ttlMs: 120_000) == .held)
                // A command repeated after a reconnect finds its own claim: never "someone else's".
                #expect(try await store.claim("t", owner: "A", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                try await store.release("t", owner: "B")
                #expect(try server.cliText("GET", "passgate:flight:t").hasPrefix("A "))
                #expect(try await store.claim("t", owner: "C", leaseMs: 60_000, ttlMs: 120_000) == .held)
                try await store.release("t", owner: "A")
                #expect(try server.cliText("EXISTS", "passgate:flight:t") == "0")
                #expect(try await store.claim("t", owner: "C", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                try await store.release("never-claimed", owner: "A")
                // Claims and replay values live under different keys.
                #expect(try await store.get("t") == nil)
            }
        }
    }

    @Test("a lapsed lease is abandoned, never taken over; renewal keeps a lease alive; the claim lives for the outcome's TTL")
    func leases() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                #expect(try await store.claim("t", owner: "A", leaseMs: 150, ttlMs: 120_000) == .claimed)
                let left = try #require(Int(try server.cliText("PTTL", "passgate:flight:t")))
                #expect(left > 60_000 && left <= 120_000, "PTTL \(left)")
                #expect(await eventually { (try? await store.claim("t", owner: "B", leaseMs: 150, ttlMs: 120_000)) == .abandoned })
                #expect(try server.cliText("GET", "passgate:flight:t").hasPrefix("A "))
                // The owner renews (it was only slow): the claim is live again and keeps its TTL.
                #expect(try await store.renew("t", owner: "A", leaseMs: 60_000))
                #expect(try await store.claim("t", owner: "B", leaseMs: 150, ttlMs: 120_000) == .held)
                #expect(try await !store.renew("t", owner: "B", leaseMs: 60_000))
                let kept = try #require(Int(try server.cliText("PTTL", "passgate:flight:t")))
                #expect(kept > 60_000 && kept <= 120_000, "PTTL \(kept)")
                #expect(try await !store.renew("absent", owner: "A", leaseMs: 60_000))
            }
        }
    }

    @Test("settle stores only the first outcome, drops only its owner's claim, and a claim finds the stored outcome")
    func settleIsFirstWins() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                #expect(try await store.claim("t", owner: "A", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                #expect(try await store.settle("t", value: [1], ttlMs: 120_000, owner: "B") == nil)
                #expect(try server.cliText("EXISTS", "passgate:flight:t") == "1")
                #expect(try await store.settle("t", value: [2], ttlMs: 120_000, owner: "A") == [1])
                #expect(try server.cliText("EXISTS", "passgate:flight:t") == "0")
                #expect(try await store.get("t") == [1])
                #expect(try await store.claim("t", owner: "C", leaseMs: 60_000, ttlMs: 120_000) == .stored([1]))
            }
        }
    }

    @Test("a claim written by a Passgate from before leases (owner only) counts as live, never taken over")
    func legacyClaimIsHeld() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                _ = try server.cli("SET", "passgate:flight:t", "old-instance", "PX", "60000")
                #expect(try await store.claim("t", owner: "A", leaseMs: 60_000, ttlMs: 120_000) == .held)
                try await store.release("t", owner: "old")
                #expect(try server.cliText("GET", "passgate:flight:t") == "old-instance")
            }
        }
    }

    @Test("50 concurrent claims on one key: exactly one wins")
    func concurrentClaims() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<50 {
                        group.addTask { try await store.claim("hot", owner: "owner-\(index)", leaseMs: 60_000, ttlMs: 120_000) == .claimed }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(winners == 1)
            }
        }
    }

    @Test("two store instances on one Redis share values and claims")
    func twoInstances() async throws {
        try await RedisServerProcess.with { server in
            let key = try randomKey()
            try await withStore(server, key: key) { first in
                try await withStore(server, key: key, connections: 2) { second in
                    _ = try await first.settle("shared", value: value, ttlMs: 120_000, owner: nil)
                    #expect(try await second.get("shared") == value)
                    #expect(try await second.claim("t", owner: "instance-2", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                    #expect(try await first.claim("t", owner: "instance-1", leaseMs: 60_000, ttlMs: 120_000) == .held)
                    try await first.release("t", owner: "instance-1")
                    #expect(try await first.claim("t", owner: "instance-1", leaseMs: 60_000, ttlMs: 120_000) == .held)
                    try await second.release("t", owner: "instance-2")
                    #expect(try await first.claim("t", owner: "instance-1", leaseMs: 60_000, ttlMs: 120_000) == .claimed)
                }
            }
        }
    }

    @Test("a database number in the URL is selected on every connection")
    func selectsDatabase() async throws {
        try await RedisServerProcess.with { server in
            let store = try RedisStateStore(url: server.url + "/3", encryptionKey: try randomKey(), connections: 2)
            _ = try await store.settle("in-db-3", value: value, ttlMs: 120_000, owner: nil)
            #expect(try await store.get("in-db-3") == value)
            await store.shutdown()
            #expect(try server.cliText("-n", "3", "EXISTS", "passgate:replay:in-db-3") == "1")
            #expect(try server.cliText("-n", "0", "EXISTS", "passgate:replay:in-db-3") == "0")
        }
    }

    @Test("configuration errors: key length, pool size, timeout, URL")
    func configurationErrors() {
        #expect(throws: RedisConfigurationError.self) { try RedisStateStore(url: "redis://localhost", encryptionKey: [1, 2, 3]) }
        #expect(throws: RedisConfigurationError.self) {
            try RedisStateStore(url: "redis://localhost", encryptionKey: Array(repeating: 1, count: 32), connections: 0)
        }
        #expect(throws: RedisConfigurationError.self) {
            try RedisStateStore(url: "redis://localhost", encryptionKey: Array(repeating: 1, count: 32), operationTimeoutMs: 0)
        }
        #expect(throws: RedisConfigurationError.self) {
            try RedisStateStore(url: "http://localhost", encryptionKey: Array(repeating: 1, count: 32))
        }
    }
}
