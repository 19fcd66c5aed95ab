import PassgateLiveTestSupport
import PassgateCore
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import PassgateConfig
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
            let (sandbox, port) = try await CarrierErrorTests.misconfigured { $0.latencyMs = 300 }
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

    @Test("Redis stopped mid-test: clear 503 errors, the carrier not called, /readyz still 200 (state degraded) and the metric at 0; recovers when Redis returns")
    func redisOutage() async throws {
        try await RedisServerProcess.with { redis in
            let (sandbox, port) = try await CarrierErrorTests.misconfigured { _ in }
            try await withRunningPassgate(Self.configuration(redis: redis, carrier: port)) { passgate in
                let carrier = "http://127.0.0.1:\(port)"
                #expect(try await passgate.send(.get, "/readyz", headers: []).status == 200)
                await redis.stop()
                let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: carrier, appId: TestConfiguration.md5App)
                let refused = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token])
                #expect(refused.status == 503 && refused.errorCode == "carrier_unavailable" && refused.error["retryable"] as? Bool == true, "\(refused.body)")
                #expect((refused.error["message"] as? String)?.contains("state store") == true)
                #expect(try await RunningPassgate.sandboxCalls(http: passgate.http, base: carrier) == 0)
                // Every instance shares this Redis: failing readiness on it would empty the load balancer at once.
                let degraded = try await passgate.send(.get, "/readyz", headers: [])
                let state = (degraded.json["checks"] as? [String: String])?["state"] ?? ""
                #expect(degraded.status == 200 && state.hasPrefix("degraded:") && state.contains("carrier_unavailable"), "\(degraded.body)")
                #expect(try await passgate.metrics().contains(#"passgate_state_store_up{backend="redis"} 0"#))
                #expect(passgate.logs.contents.contains { $0.contains("state store unreachable") })
                try await redis.restart()
                let ready = try await passgate.send(.get, "/readyz", headers: [])
                #expect(ready.status == 200 && (ready.json["checks"] as? [String: String])?["state"] == "ok: redis", "\(ready.body)")
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
