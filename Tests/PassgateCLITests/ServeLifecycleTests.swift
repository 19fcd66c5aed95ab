import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import PassgateProviders
import ProviderCMCC
import PassgateTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `passgate serve` as its own process, as a load balancer and an operator see it: SIGTERM
/// during steady load, SIGHUP after a secret rotation.
@Suite("passgate serve: drain and reload signals")
struct ServeLifecycleTests {
    static let app = "300011111111"

    /// One request of the load: when it was sent (relative to SIGTERM, negative before) and how it ended.
    struct Outcome: Sendable {
        var sentAfterTermMs: Int
        var finishedAfterTermMs: Int
        var status: Int?
        var error: String?
    }

    /// Starts `passgate serve` on `yaml` and returns it with its API (and sandbox, when embedded) port.
    static func serve(_ yaml: String, in directory: String) async throws -> (Subprocess.Child, api: Int, sandbox: Int?) {
        try yaml.write(toFile: "\(directory)/passgate.yaml", atomically: true, encoding: .utf8)
        let child = try Subprocess.launch(
            ProcessRunner.passgate, ["serve", "--config", "\(directory)/passgate.yaml"],
            stdoutPath: "\(directory)/out.log", stderrPath: "\(directory)/err.log")
        do {
            let api = try await ServeCommandTests.waitFor(#""msg":"listening",[^\n]*?"port":"(\d+)""#, in: "\(directory)/out.log")
            let sandbox = yaml.contains("enabled: true")
                ? Int(try await ServeCommandTests.waitFor(#"embedded CMCC sandbox on http://127\.0\.0\.1:(\d+)"#, in: "\(directory)/err.log")) : nil
            return (child, try #require(Int(api)), sandbox)
        } catch {
            child.terminate(grace: 0)  // never leave a server behind when the test gives up on it
            throw error
        }
    }

    /// A token for the test's app, minted by the sandbox.
    static func mint(_ http: CurlHTTPClient, sandbox: Int) async throws -> String {
        let mint = try await http.send(.init(
            method: .post, url: "http://127.0.0.1:\(sandbox)/sandbox/tokens", headers: [("Content-Type", "application/json")],
            body: Array(#"{"appId":"\#(app)","phoneNumber":"13800138000"}"#.utf8), timeoutMs: 15_000))
        return try #require((try JSONSerialization.jsonObject(with: Data(mint.body)) as? [String: Any])?["token"] as? String)
    }

    /// Exchanges `token` through Passgate; the answer's status.
    static func exchange(_ http: CurlHTTPClient, api: Int, token: String, apiKey: String) async throws -> Int {
        let answer = try await http.send(.init(
            method: .post, url: "http://127.0.0.1:\(api)/v1/phone-number",
            headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")],
            body: Array(#"{"appId":"\#(app)","token":"\#(token)"}"#.utf8), timeoutMs: 15_000))
        return answer.status
    }

    @Test("SIGTERM under steady load: /readyz 503 at once, zero failed requests while draining, in-flight carrier calls complete, exit 0")
    func drainUnderLoad() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let apiKey = "drain-test-key"
        let hash = Hex.lowercase(try Digest.sha256(Array(apiKey.utf8)))
        let (child, api, sandboxPort) = try await Self.serve("""
            server: {host: 127.0.0.1, port: 0, drainSeconds: 4, shutdownTimeoutSeconds: 10}
            metrics: {port: 0}
            log: {level: info, format: json}
            providers: {cmcc: {timeoutMs: 9000}}
            apps:
              - {appId: "\(Self.app)", provider: cmcc, signMode: md5, secret: "DRAINsecret0123456789ABCDEF01234"}
            clients:
              - {id: load, apiKeySHA256: "\(hash)", apps: ["\(Self.app)"]}
            sandbox: {enabled: true, host: 127.0.0.1, port: 0, keyDirectory: "\(directory)/keys"}
            audit: {path: "\(directory)/audit/audit.jsonl"}
            """, in: directory)
        defer { child.terminate(grace: 0) }
        let sandbox = try #require(sandboxPort)
        let http = CurlHTTPClient()
        let drainMs = 4_000
        let timeline = Timeline(drainMs: drainMs)

        let outcomes = try await withThrowingTaskGroup(of: [Outcome].self) { group in
            for _ in 0..<24 {
                group.addTask {
                    var mine: [Outcome] = []
                    while timeline.sinceTerm() < timeline.stopIssuingMs {
                        // The time that counts is when the request reaches Passgate: on a loaded
                        // machine minting alone can outlast the drain, and a load balancer would
                        // not send a request after it (it saw /readyz 503 long before).
                        let token: String
                        do {
                            token = try await Self.mint(http, sandbox: sandbox)
                        } catch {
                            mine.append(Outcome(sentAfterTermMs: timeline.sinceTerm(), finishedAfterTermMs: timeline.sinceTerm(), error: "minting: \(error)"))
                            continue
                        }
                        let sent = timeline.sinceTerm()
                        guard sent < timeline.stopIssuingMs else { break }
                        do {
                            let status = try await Self.exchange(http, api: api, token: token, apiKey: apiKey)
                            mine.append(Outcome(sentAfterTermMs: sent, finishedAfterTermMs: timeline.sinceTerm(), status: status))
                            timeline.exchanged()
                        } catch {
                            mine.append(Outcome(sentAfterTermMs: sent, finishedAfterTermMs: timeline.sinceTerm(), error: "\(error)"))
                        }
                    }
                    return mine
                }
            }
            // Steady load first; then SIGTERM; then make the carrier slower than the rest of the
            // drain, so every request sent from then on is still at the carrier when the drain ends
            // and the listener closes. Ordered by events, not sleeps: a loaded CI machine stretches sleeps.
            let loaded = ContinuousClock.now
            while timeline.exchangedBeforeTerm < 20, ContinuousClock.now - loaded < .seconds(30) {
                try await Task.sleep(for: .milliseconds(20))
            }
            timeline.markTerm()
            child.send(SIGTERM)
            try await Task.sleep(for: .milliseconds(300))
            let ready = try await http.send(.init(url: "http://127.0.0.1:\(api)/readyz"))
            #expect(ready.status == 503 && String(decoding: ready.body, as: UTF8.self).contains("not_ready"))
            _ = try await http.send(.init(
                method: .put, url: "http://127.0.0.1:\(sandbox)/sandbox/faults", headers: [("Content-Type", "application/json")],
                body: Array(#"{"fault":"none","latencyMs":\#(drainMs + 1000)}"#.utf8)))
            timeline.markSlow()
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let status = await child.exitStatus()
        await http.shutdown(gracePeriodMs: 0)

        let failed = outcomes.filter { $0.status != 200 }
        #expect(failed.isEmpty, "\(failed.count) of \(outcomes.count) requests failed: \(failed.prefix(5))")
        #expect(outcomes.filter { $0.sentAfterTermMs < 0 }.count >= 20, "too little load before SIGTERM: \(outcomes.count) requests")
        #expect(outcomes.contains { $0.sentAfterTermMs >= 0 }, "no request was sent during the drain period")
        // Sent after the carrier turned slow: still at the carrier when the drain period ended.
        #expect(outcomes.contains { $0.sentAfterTermMs < drainMs && $0.finishedAfterTermMs > drainMs && $0.status == 200 },
                "no request in flight at the end of the drain completed: \(outcomes.map { ($0.sentAfterTermMs, $0.finishedAfterTermMs) }.suffix(10))")
        #expect(status == 0)
        let log = (try? String(contentsOfFile: "\(directory)/out.log", encoding: .utf8)) ?? ""
        #expect(log.contains("drain period over") && log.contains(#""msg":"stopped""#), "\(log.suffix(1500))")
    }
}


extension ServeLifecycleTests {
    @Test("SIGHUP after a secret rotation: later requests use the new secret; an invalid file is rejected and service continues")
    func sighupReload() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let (old, new) = ("OLDsecret0123456789ABCDEF0123456", "NEWsecret0123456789ABCDEF0123456")
        let carrier = CarrierSandbox(configuration: SandboxConfiguration(apps: [CMCCEmulator.app(appId: Self.app, md5Secret: old)]), registry: .builtIn)
        let port = try await carrier.start()
        try old.write(toFile: "\(directory)/secret", atomically: true, encoding: .utf8)
        let apiKey = "sighup-test-key"
        let hash = Hex.lowercase(try Digest.sha256(Array(apiKey.utf8)))
        let yaml = """
            server: {host: 127.0.0.1, port: 0, drainSeconds: 0}
            metrics: {port: 0}
            log: {level: info, format: json}
            providers: {cmcc: {baseURLs: ["http://127.0.0.1:\(port)"]}}
            apps:
              - {appId: "\(Self.app)", provider: cmcc, signMode: md5, secret: "file:\(directory)/secret"}
            clients:
              - {id: ops, apiKeySHA256: "\(hash)", apps: ["\(Self.app)"]}
            sandbox: {enabled: false}
            audit: {path: "\(directory)/audit/audit.jsonl"}
            """
        let (child, api, _) = try await Self.serve(yaml, in: directory)
        defer { child.terminate(grace: 0) }
        let http = CurlHTTPClient()
        func exchange() async throws -> (Int, String) {
            let token = try carrier.mintToken(appId: Self.app, phoneNumber: "13800138000")
            let answer = try await http.send(.init(
                method: .post, url: "http://127.0.0.1:\(api)/v1/phone-number",
                headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")],
                body: Array(#"{"appId":"\#(Self.app)","token":"\#(token)"}"#.utf8), timeoutMs: 10_000))
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }
        func waitForLog(_ text: String, count: Int) async throws {
            for _ in 0..<200 {
                let log = (try? String(contentsOfFile: "\(directory)/out.log", encoding: .utf8)) ?? ""
                if log.components(separatedBy: text).count - 1 >= count { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("'\(text)' did not appear \(count) times in the log")
        }
        #expect(try await exchange().0 == 200)

        // The carrier console and the secret file get the new secret; the running config still signs with the old one.
        carrier.replaceApps([CMCCEmulator.app(appId: Self.app, md5Secret: new)])
        try new.write(toFile: "\(directory)/secret", atomically: true, encoding: .utf8)
        #expect(try await exchange().1.contains("signature_rejected"))
        child.send(SIGHUP)
        try await waitForLog(#""msg":"configuration reloaded""#, count: 1)
        #expect(try await exchange().0 == 200)

        // An invalid file is rejected with a log line; the running configuration keeps serving.
        try (yaml + "\nservr: {}\n").write(toFile: "\(directory)/passgate.yaml", atomically: true, encoding: .utf8)
        child.send(SIGHUP)
        try await waitForLog("configuration reload rejected", count: 1)
        #expect(try await exchange().0 == 200)
        #expect(child.isRunning)

        child.send(SIGTERM)
        #expect(await child.exitStatus() == 0)
        await http.shutdown(gracePeriodMs: 0)
        await carrier.shutdown()
        let log = (try? String(contentsOfFile: "\(directory)/out.log", encoding: .utf8)) ?? ""
        #expect(!log.contains(new) && !log.contains(old), "a secret reached the log")
    }
}

/// When SIGTERM was sent, shared by the load workers.
final class Timeline: Sendable {
    private let clock = ContinuousClock()
    private let term = Mutex<ContinuousClock.Instant?>(nil)
    private let slowSince = Mutex<Int?>(nil)
    private let drainMs: Int

    init(drainMs: Int) {
        self.drainMs = drainMs
    }

    private let exchangedCount = Mutex(0)

    func markTerm() { term.withLock { $0 = clock.now } }

    /// One exchange answered; counted until SIGTERM.
    func exchanged() {
        guard term.withLock({ $0 }) == nil else { return }
        exchangedCount.withLock { $0 += 1 }
    }

    /// The exchanges answered before SIGTERM: the steady load the drain starts under.
    var exchangedBeforeTerm: Int { exchangedCount.withLock { $0 } }
    func markSlow() { slowSince.withLock { $0 = sinceTerm() } }

    /// When the load stops sending new requests, as a load balancer would after `/readyz` went
    /// 503: well before the drain ends, but only once a few requests have met the slow carrier.
    var stopIssuingMs: Int {
        let latest = drainMs - 700
        guard let slow = slowSince.withLock({ $0 }) else { return latest }
        return min(max(drainMs * 5 / 8, slow + 300), latest)
    }

    /// Milliseconds since SIGTERM; -1 before it.
    func sinceTerm() -> Int {
        guard let term = term.withLock({ $0 }) else { return -1 }
        let elapsed = clock.now - term
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
