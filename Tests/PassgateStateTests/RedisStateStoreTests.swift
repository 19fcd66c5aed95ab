import Foundation
import OpenSSLCrypto
import PassgateState
import PassgateTestSupport
import Testing

/// The Redis store against a real `redis-server`; every test starts its own on its own port.
@Suite("RedisStateStore", .serialized)
struct RedisStateStoreTests {
    let value = Array("{\"outcome\":\"success\",\"msisdn\":\"+8613800138000\"}".utf8)

    @Test("set then get returns the value; a missing key is nil; ping answers")
    func roundTrip() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.ping()
                #expect(try await store.get("absent") == nil)
                try await store.set("k1", value: value, ttlMs: 120_000)
                #expect(try await store.get("k1") == value)
                try await store.set("k1", value: [], ttlMs: 120_000)
                #expect(try await store.get("k1") == [])
                let binary = (0...255).map(UInt8.init)
                try await store.set("k2", value: binary, ttlMs: 120_000)
                #expect(try await store.get("k2") == binary)
            }
        }
    }

    @Test("values in Redis are encrypted, and keys carry the replay prefix")
    func encryptedAtRest() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                try await store.set("abc", value: value, ttlMs: 120_000)
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
                try await store.set("k", value: value, ttlMs: 120_000)
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
                try await store.set("a", value: value, ttlMs: 120_000)
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
                try await store.set("long", value: value, ttlMs: 60_000)
                try await store.set("short", value: value, ttlMs: 300)
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

    @Test("claim is NX; release only by the owner")
    func claimSemantics() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                #expect(try await store.claim("t", owner: "A", ttlMs: 120_000))
                #expect(try await !store.claim("t", owner: "B", ttlMs: 120_000))
                #expect(try await !store.claim("t", owner: "A", ttlMs: 120_000))
                try await store.release("t", owner: "B")
                #expect(try server.cliText("GET", "passgate:flight:t") == "A")
                #expect(try await !store.claim("t", owner: "C", ttlMs: 120_000))
                try await store.release("t", owner: "A")
                #expect(try server.cliText("EXISTS", "passgate:flight:t") == "0")
                #expect(try await store.claim("t", owner: "C", ttlMs: 120_000))
                try await store.release("never-claimed", owner: "A")
                // Claims and replay values live under different keys.
                #expect(try await store.get("t") == nil)
            }
        }
    }

    @Test("a claim marker expires after its TTL")
    func claimExpiry() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                #expect(try await store.claim("t", owner: "A", ttlMs: 300))
                // The marker carries the lifetime in milliseconds (-2: already expired, never -1).
                let left = try #require(Int(try server.cliText("PTTL", "passgate:flight:t")))
                #expect(left <= 300 && left != -1, "PTTL \(left)")
                // Once it has expired, another owner gets it (while A holds it, claims fail: claimSemantics).
                #expect(await eventually { (try? await store.claim("t", owner: "C", ttlMs: 120_000)) == true })
                #expect(try server.cliText("GET", "passgate:flight:t") == "C")
                // A's late release must not drop C's marker.
                try await store.release("t", owner: "A")
                #expect(try await !store.claim("t", owner: "D", ttlMs: 120_000))
            }
        }
    }

    @Test("50 concurrent claims on one key: exactly one wins")
    func concurrentClaims() async throws {
        try await RedisServerProcess.with { server in
            try await withStore(server) { store in
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<50 {
                        group.addTask { try await store.claim("hot", owner: "owner-\(index)", ttlMs: 120_000) }
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
                    try await first.set("shared", value: value, ttlMs: 120_000)
                    #expect(try await second.get("shared") == value)
                    #expect(try await second.claim("t", owner: "instance-2", ttlMs: 120_000))
                    #expect(try await !first.claim("t", owner: "instance-1", ttlMs: 120_000))
                    try await first.release("t", owner: "instance-1")
                    #expect(try await !first.claim("t", owner: "instance-1", ttlMs: 120_000))
                    try await second.release("t", owner: "instance-2")
                    #expect(try await first.claim("t", owner: "instance-1", ttlMs: 120_000))
                }
            }
        }
    }

    @Test("a database number in the URL is selected on every connection")
    func selectsDatabase() async throws {
        try await RedisServerProcess.with { server in
            let store = try RedisStateStore(url: server.url + "/3", encryptionKey: try randomKey(), connections: 2)
            try await store.set("in-db-3", value: value, ttlMs: 120_000)
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
