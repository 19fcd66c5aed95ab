import PassgateLiveTestSupport
import PassgateCore
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import PassgateConfig
import ProviderCMCC
import PassgateServer
import PassgateTestSupport
import Testing

/// Several instances, one Redis: a token is spent once across all of them.
@Suite("shared state on Redis")
struct SharedStateTests {
    static func configuration(redis: RedisServerProcess, carrier: Int) -> PassgateConfiguration {
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(carrier)")
        configuration.state.backend = .redis
        configuration.state.redisURL = redis.url
        configuration.state.replayKey = Array(repeating: 0x5A, count: 32)
        return configuration
    }

    @Test("two instances sharing one Redis, the same token sent to both at once: one carrier call, identical answers")
    func twoInstancesOneCall() async throws {
        try await RedisServerProcess.with { redis in
            let (sandbox, port) = try await startSandbox { $0.latencyMs = 300 }
            try await withRunningPassgate(Self.configuration(redis: redis, carrier: port)) { first in
                try await withRunningPassgate(Self.configuration(redis: redis, carrier: port)) { second in
                    let token = try await RunningPassgate.mintToken(http: first.http, sandbox: "http://127.0.0.1:\(port)", appId: TestConfiguration.md5App, phone: "13912340000")
                    struct Seen: Sendable { var status: Int; var phone: String?; var taskId: String? }
                    let answers = try await withThrowingTaskGroup(of: Seen.self) { group in
                        for index in 0..<10 {
                            let instance = index % 2 == 0 ? first : second
                            group.addTask {
                                let answer = try await instance.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                                return Seen(status: answer.status, phone: answer.json["phoneNumber"] as? String, taskId: answer.json["carrierTaskId"] as? String)
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(answers.allSatisfy { $0.status == 200 && $0.phone == "13912340000" }, "\(answers.map(\.status))")
                    #expect(Set(answers.map(\.taskId)).count == 1)
                    #expect(try await RunningPassgate.sandboxCalls(http: first.http, base: "http://127.0.0.1:\(port)") == 1)
                    // The number is stored encrypted: Redis holds no phone number in clear.
                    let keys = try redis.cliText("KEYS", "passgate:replay:*")
                    let firstKey = try #require(keys.split(separator: "\n").first.map(String.init))
                    #expect(!(try redis.cliText("GET", firstKey)).contains("13912340000"))
                }
            }
            await sandbox.shutdown()
        }
    }

    @Test("two instances, one call slot each, a call that waits for its slot longer than a lease, the retry sent to the other instance: the carrier sees the token once and both callers get the number")
    func retryOnOtherInstanceDuringQueuedCall() async throws {
        try await RedisServerProcess.with { redis in
            let (sandbox, port) = try await startSandbox { $0.latencyMs = 2_500 }
            var configuration = Self.configuration(redis: redis, carrier: port)
            configuration.providers[CMCC.providerID]?.maxConcurrentCalls = 1
            configuration.providers[CMCC.providerID]?.callQueueTimeoutMs = 6_000
            configuration.providers[CMCC.providerID]?.timeoutMs = 5_000
            // A lease shorter than the slot wait plus the call: only renewal keeps the claim live.
            configuration.state.claimLeaseMs = 1_000
            configuration.state.inFlightWaitMs = 10_000
            try await withRunningPassgate(configuration) { a in
                try await withRunningPassgate(configuration) { b in
                    let carrier = "http://127.0.0.1:\(port)"
                    let busy = try await RunningPassgate.mintToken(http: a.http, sandbox: carrier, appId: TestConfiguration.md5App, phone: "13700000001")
                    let token = try await RunningPassgate.mintToken(http: a.http, sandbox: carrier, appId: TestConfiguration.md5App, phone: "13912340000")
                    async let slotHolder = a.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": busy])
                    _ = await eventually { (try? redis.cliText("KEYS", "passgate:flight:*").isEmpty) == false }
                    async let first = a.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                    // The token is claimed and queued for A's one slot. Not asserted: in a loaded
                    // test process A may take the token only after the slot is free, which changes
                    // the path but not the promise (ClaimTests drives each path on a manual clock).
                    let queued = await eventually { (try? await a.metrics().contains(#"passgate_carrier_calls_queued{provider="cmcc"} 1"#)) == true }
                    // The slot holder's answer comes after two leases: the queued call's claim lives on by renewal.
                    #expect(try await slotHolder.status == 200)
                    let retry = try await b.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                    let original = try await first
                    #expect(original.status == 200 && original.json["phoneNumber"] as? String == "13912340000", "\(original.body)")
                    #expect(retry.status == 200 && retry.json["phoneNumber"] as? String == "13912340000", "\(retry.body)")
                    if queued { #expect(retry.json["replayed"] as? Bool == true, "B waited for A's call: \(retry.body)") }
                    #expect(try await RunningPassgate.sandboxCalls(http: a.http, base: carrier) == 2)
                }
            }
            await sandbox.shutdown()
        }
    }

    @Test("the state store refusing writes after the carrier answered: the caller gets the number, the give-up is counted, and a retry is told the token may be spent, with no second carrier call")
    func storeFailsAfterTheCall() async throws {
        try await RedisServerProcess.with { redis in
            let (sandbox, port) = try await startSandbox { $0.latencyMs = 800 }
            var configuration = Self.configuration(redis: redis, carrier: port)
            configuration.state.claimLeaseMs = 1_000
            try await withRunningPassgate(configuration) { passgate in
                let carrier = "http://127.0.0.1:\(port)"
                let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: carrier, appId: TestConfiguration.md5App)
                let first = Task { () async throws -> (status: Int, phone: String?, body: String) in
                    let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                    return (answer.status, answer.json["phoneNumber"] as? String, "\(answer.body)")
                }
                #expect(await eventually { (try? redis.cliText("KEYS", "passgate:flight:*").isEmpty) == false })
                // Writes (every script that writes) wait in Redis until the pause ends; each attempt times out.
                _ = try redis.cli("CLIENT", "PAUSE", "6000", "WRITE")
                let answer = try await first.value
                #expect(answer.status == 200 && answer.phone == "13800138000", "\(answer.body)")
                #expect(try await passgate.metrics().contains(#"passgate_state_store_giveups_total{operation="settle"} 1"#))
                _ = try redis.cli("CLIENT", "UNPAUSE")
                let retry = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                #expect(retry.errorCode == "carrier_timeout" || retry.errorCode == "call_in_progress", "\(retry.body)")
                let settled = await eventually {
                    let again = try? await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                    return again?.errorCode == "carrier_timeout" && again?.error["action"] as? String == "new_token"
                }
                #expect(settled)
                #expect(try await RunningPassgate.sandboxCalls(http: passgate.http, base: carrier) == 1)
            }
            await sandbox.shutdown()
        }
    }

    @Test("Redis stopped mid-test: clear 503 errors, the carrier not called, /readyz still 200 (state degraded) and the metric at 0; recovers when Redis returns")
    func redisOutage() async throws {
        try await RedisServerProcess.with { redis in
            let (sandbox, port) = try await startSandbox { _ in }
            try await withRunningPassgate(TestConfiguration.withAdmin(Self.configuration(redis: redis, carrier: port))) { passgate in
                let carrier = "http://127.0.0.1:\(port)"
                #expect(try await passgate.send(.get, "/readyz", headers: []).status == 200)
                await redis.stop()
                let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: carrier, appId: TestConfiguration.md5App)
                let refused = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                #expect(refused.status == 503 && refused.errorCode == "carrier_unavailable" && refused.error["retryable"] as? Bool == true, "\(refused.body)")
                #expect((refused.error["message"] as? String)?.contains("state store") == true)
                #expect(try await RunningPassgate.sandboxCalls(http: passgate.http, base: carrier) == 0)
                // Every instance shares this Redis: failing readiness on it would empty the load balancer at once.
                // /readyz reads the monitor's last check, which sees the outage within its interval.
                #expect(await eventually(timeout: .seconds(20)) { (try? await passgate.readinessDetails().checks["state"])?.hasPrefix("degraded:") == true })
                let degraded = try await passgate.readinessDetails()
                let state = degraded.checks["state"] ?? ""
                #expect(degraded.status == 200 && state.contains("carrier_unavailable"), "\(degraded)")
                #expect(try await passgate.send(.get, "/readyz", headers: []).status == 200)
                #expect(try await passgate.metrics().contains(#"passgate_state_store_up{backend="redis"} 0"#))
                #expect(passgate.logs.contents.contains { $0.contains("state store unreachable") })
                try await redis.restart()
                #expect(await eventually(timeout: .seconds(20)) { (try? await passgate.readinessDetails().checks["state"]) == "ok: redis" })
                #expect(try await passgate.metrics().contains(#"passgate_state_store_up{backend="redis"} 1"#))
                let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                #expect(answer.status == 200, "\(answer.body)")
            }
            await sandbox.shutdown()
        }
    }

    @Test("redis without a shared state.replayKey is refused at start with a message naming the key")
    func redisNeedsSharedReplayKey() async throws {
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:9")
        configuration.state.backend = .redis
        configuration.state.replayKey = nil
        let error = await #expect(throws: PassgateRuntime.SharedReplayKeyRequired.self) {
            try await PassgateRuntime(configuration: configuration, logSink: MemoryLogSink()).run()
        }
        #expect(error?.description.contains("state.replayKey") == true)
    }
}
