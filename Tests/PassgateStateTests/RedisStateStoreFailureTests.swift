import Foundation
import Logging
import PassgateState
import PassgateTestSupport
import ServiceLifecycle
import Testing

/// What the Redis store does when Redis goes away, hangs, or comes back.
@Suite("RedisStateStore failures", .serialized)
struct RedisStateStoreFailureTests {
    @Test("Redis stopped: every operation throws .unavailable; ping throws; none hangs", .timeLimit(.minutes(1)))
    func stoppedRedis() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.kill() }
        try await withStore(server, timeoutMs: 500) { store in
            _ = try await store.settle("k", value: [1], ttlMs: 10_000, owner: nil)
            _ = try await store.claim("c", owner: "A", leaseMs: 5_000, ttlMs: 10_000)
            await server.stop()

            do {
                let error = await expectStateError(.unavailable) { try await store.get("k") }
                #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
                await expectStateError(.unavailable) { _ = try await store.settle("k", value: [2], ttlMs: 1000, owner: nil) }
                await expectStateError(.unavailable) { try await store.claim("c", owner: "B", leaseMs: 1000, ttlMs: 1000) }
                await expectStateError(.unavailable) { try await store.renew("c", owner: "A", leaseMs: 1000) }
                await expectStateError(.unavailable) { try await store.release("c", owner: "A") }
                await expectStateError(.unavailable) { try await store.ping() }
            }

            // Many at once: all fail, none hangs.
            let failures = await withTaskGroup(of: StateStoreError.Kind?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await store.ping()
                            return nil
                        } catch {
                            _ = index
                            return (error as? StateStoreError)?.kind
                        }
                    }
                }
                return await group.reduce(into: [StateStoreError.Kind?]()) { $0.append($1) }
            }
            #expect(failures.allSatisfy { $0 == .unavailable })
        }
    }

    @Test("Redis restarted on the same port: the same store recovers")
    func restartedRedis() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.kill() }
        try await withStore(server, connections: 4) { store in
            // Open every pooled connection, so each one is stale after the restart.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { try await store.ping() } }
                try await group.waitForAll()
            }
            _ = try await store.settle("before", value: [1], ttlMs: 10_000, owner: nil)

            await server.stop()
            await expectStateError(.unavailable) { try await store.ping() }
            try await server.restart()

            // Stale connections are replaced on first use: nothing fails after Redis is back.
            for _ in 0..<8 { try await store.ping() }
            #expect(try await store.get("before") == nil)  // no persistence: the data is gone
            _ = try await store.settle("after", value: [2], ttlMs: 10_000, owner: nil)
            #expect(try await store.get("after") == [2])
            #expect(try await store.claim("c", owner: "A", leaseMs: 5_000, ttlMs: 10_000) == .claimed)
        }
    }

    @Test("Redis restarted while connections sit idle: no failure at all")
    func restartWhileIdle() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.kill() }
        try await withStore(server, connections: 3) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<9 { group.addTask { try await store.ping() } }
                try await group.waitForAll()
            }
            await server.stop()
            try await server.restart()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<9 { group.addTask { _ = try await store.settle("k\(index)", value: [1], ttlMs: 10_000, owner: nil) } }
                try await group.waitForAll()
            }
        }
    }

    @Test("Redis hanging: operations throw .timeout after the budget, then recover", .timeLimit(.minutes(1)))
    func hangingRedis() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.kill() }
        try await withStore(server, connections: 2, timeoutMs: 300) { store in
            try await store.ping()
            server.freeze()
            defer { server.thaw() }
            let elapsed = await elapsedMs {
                let error = await expectStateError(.timeout) { try await store.ping() }
                #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
                await expectStateError(.timeout) { try await store.get("k") }
            }
            #expect(elapsed >= 500, "two timed-out operations took \(elapsed) ms")  // each waited out its 300 ms budget

            // More callers than connections: queued ones give up too, none waits forever.
            let kinds = await withTaskGroup(of: StateStoreError.Kind?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            try await store.ping()
                            return nil
                        } catch {
                            return (error as? StateStoreError)?.kind
                        }
                    }
                }
                return await group.reduce(into: [StateStoreError.Kind?]()) { $0.append($1) }
            }
            #expect(kinds.allSatisfy { $0 == .timeout }, "\(kinds)")

            server.thaw()
            try await Task.sleep(for: .milliseconds(100))
            try await store.ping()
            _ = try await store.settle("k", value: [1], ttlMs: 10_000, owner: nil)
            #expect(try await store.get("k") == [1])
        }
    }

    @Test("nothing listening: connection refused is .unavailable and names host:port")
    func refused() async throws {
        let port = try TestPorts.reserve()
        let store = try RedisStateStore(url: "redis://127.0.0.1:\(port)", encryptionKey: try randomKey())
        let error = await expectStateError(.unavailable) { try await store.ping() }
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
        await store.shutdown()
    }

    @Test("after shutdown, operations fail with .unavailable and the worker threads are gone")
    func shutdown() async throws {
        try await RedisServerProcess.with { server in
            let store = try RedisStateStore(url: server.url, encryptionKey: try randomKey(), connections: 3)
            try await store.ping()
            #expect(workerThreadCount() >= 3)
            await store.shutdown()
            await expectStateError(.unavailable) { try await store.ping() }
            await store.shutdown()  // idempotent
        }
    }

    @Test("as a Service: a ServiceGroup's graceful shutdown lets the store finish, then stops its workers; operations then fail with .unavailable")
    func asService() async throws {
        try await RedisServerProcess.with { server in
            let store = try RedisStateStore(url: server.url, encryptionKey: try randomKey(), connections: 2)
            let group = ServiceGroup(configuration: .init(services: [store], logger: Logger(label: "redis-service-test")))
            let running = Task { try await group.run() }
            _ = try await store.settle("k", value: [7], ttlMs: 120_000, owner: nil)
            #expect(try await store.get("k") == [7])
            await group.triggerGracefulShutdown()
            try await running.value
            await expectStateError(.unavailable) { try await store.ping() }
            await store.shutdown()  // after the group: returns at once
        }
    }
}

/// Threads named `pg-redis-*` in this process (every live store's workers).
func workerThreadCount() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        return name.hasPrefix("pg-redis-")
    }.count
}
