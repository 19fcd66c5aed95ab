import Foundation
import PassgateTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped pieces working together: the real binary runs the shipped configuration against a
/// real Redis, and the image's HEALTHCHECK command and the Deployment's probes get the answers
/// that keep a healthy pod in service and take a pod without Redis out of it.
@Suite("Deployment as shipped")
struct AsShippedServeTests {
    @Test("passgate serve runs the shipped config (Redis with its password); the HEALTHCHECK and probes answer; Redis down is reported, never a probe failure; SIGTERM exits 0")
    func servesAsShipped() async throws {
        let shipped = try ShippedConfiguration.materialize()
        defer { shipped.remove() }
        let runtime = try #require(try Dockerfile.shipped().stages.last)
        let instruction = try #require(runtime.last("HEALTHCHECK"))
        var healthcheck = try #require(DockerfileTests.healthcheckCommand(instruction))
        healthcheck[0] = Binaries.passgate
        let (pod, container) = try Kubernetes.apiPod()
        let readiness = try container.map("readinessProbe").map("httpGet").string("path")
        let liveness = try container.map("livenessProbe").map("httpGet").string("path")
        let grace = try pod.int("terminationGracePeriodSeconds")

        try await RedisServerProcess.with { redis in
            // The test's Redis asks for the shipped state.redisPassword, as redis.yaml's does.
            let password = try String(contentsOfFile: "\(shipped.directory)/secrets/redis-password", encoding: .utf8)
            _ = try redis.cli("CONFIG", "SET", "requirepass", password.trimmingCharacters(in: .whitespacesAndNewlines))
            let port = try TestPorts.reserve()
            // Only what differs on a test machine: loopback instead of the pod IP, a free port, the
            // test's Redis, and a 1 s drain instead of 10 s (the drain itself is tested elsewhere).
            let environment = [
                "PASSGATE_SERVER_HOST": "127.0.0.1", "PASSGATE_SERVER_PORT": String(port),
                "PASSGATE_STATE_REDISURL": "\(redis.url)/0", "PASSGATE_SERVER_DRAINSECONDS": "1", "PASSGATE_METRICS_PORT": "0",
            ]
            let log = "\(shipped.directory)/serve.log"
            let server = try Subprocess.launch(Binaries.passgate, ["serve", "--config", shipped.configPath], environment: environment,
                                               stdoutPath: log, stderrPath: log)
            defer { server.terminate(grace: 0) }
            func serverLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
            func probe(_ path: String) async throws -> SubprocessResult {
                try await Subprocess.run(Binaries.passgate, ["probe", "--path", path], environment: ["PASSGATE_SERVER_PORT": String(port)])
            }

            // The Dockerfile's HEALTHCHECK, verbatim but for the binary's path; the port comes from
            // PASSGATE_SERVER_PORT as it would in a container started with that override.
            var healthy: SubprocessResult?
            for _ in 0..<300 where server.isRunning {
                let result = try await Subprocess.run(
                    healthcheck[0], Array(healthcheck.dropFirst()), environment: ["PASSGATE_SERVER_PORT": String(port)])
                if result.status == 0 { healthy = result; break }
                // An HTTP answer that is not 2xx will not change by waiting (only "not listening yet" will).
                if result.stderrText.range(of: #": [0-9]{3}"#, options: .regularExpression) != nil {
                    Issue.record("the HEALTHCHECK got \(result.stderrText)")
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            try #require(healthy != nil, "the HEALTHCHECK never passed; passgate serve said:\n\(serverLog())")
            #expect(healthy?.stdoutText.contains("/healthz: 200") == true)

            let ready = try await probe(readiness)
            #expect(ready.status == 0, "\(readiness) with Redis up: \(ready.stderrText)\n\(serverLog())")
            #expect(!ready.stdoutText.contains("degraded"), "Passgate must authenticate to Redis: \(ready.stdoutText)")
            #expect(try await probe(liveness).status == 0)

            // Redis is shared by every pod: its outage is logged and reported, but readiness stays,
            // or a Redis restart would take every pod out of the Service at once.
            await redis.stop()
            var noticed = false
            for _ in 0..<150 where !noticed {
                noticed = serverLog().contains("state store unreachable")
                if !noticed { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(noticed, "the state store monitor never logged the outage:\n\(serverLog())")
            let stillReady = try await probe(readiness)
            #expect(stillReady.status == 0, "\(readiness) must not fail because of Redis: \(stillReady.stderrText)")
            let alive = try await probe(liveness)
            #expect(alive.status == 0, "\(liveness) must not fail because of Redis: that would restart every pod")

            // Stopping: within terminationGracePeriodSeconds, and cleanly (generous bound: did not hang).
            server.send(SIGTERM)
            let status = await Self.exitStatus(of: server, killAfterSeconds: grace + 30)
            #expect(status == 0, "passgate serve exited \(status) after SIGTERM:\n\(serverLog())")
        }
    }

    @Test("passgate probe exits 1 naming the URL when nothing listens, and 64 for a malformed PASSGATE_SERVER_PORT")
    func probeFailures() async throws {
        let port = try TestPorts.reserve()  // reserved and free: nothing listens there
        let refused = try await Subprocess.run(Binaries.passgate, ["probe", "--port", String(port), "--path", "/readyz"])
        #expect(refused.status == 1)
        #expect(refused.stderrText.contains("http://127.0.0.1:\(port)/readyz"), "\(refused.stderrText)")
        let malformed = try await Subprocess.run(Binaries.passgate, ["probe"], environment: ["PASSGATE_SERVER_PORT": "eighty"])
        #expect(malformed.status == 64)
        #expect(malformed.stderrText.contains("PASSGATE_SERVER_PORT"), "\(malformed.stderrText)")
        let badPath = try await Subprocess.run(Binaries.passgate, ["probe", "--path", "healthz"])
        #expect(badPath.status == 64)
    }

    /// The child's exit status; SIGKILLs it after `killAfterSeconds` so a hang fails instead of blocking.
    static func exitStatus(of child: Subprocess.Child, killAfterSeconds: Int) async -> Int32 {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await child.exitStatus() }
            group.addTask {
                try? await Task.sleep(for: .seconds(killAfterSeconds))
                if !Task.isCancelled { child.send(SIGKILL) }
                return nil
            }
            var status: Int32 = -1
            for await result in group {
                if let result {
                    status = result
                    group.cancelAll()
                    break
                }
            }
            return status
        }
    }
}
