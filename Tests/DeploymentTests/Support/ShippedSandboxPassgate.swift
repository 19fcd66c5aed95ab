import PassgateTestSupport
import CurlTransport
import Foundation
import PassgateCLI
import PassgateConfig
import PassgateServer

/// `config/passgate.yaml`, the configuration a fresh checkout serves (with the embedded sandbox),
/// run in this process by `PassgateRuntime` as `passgate serve` runs it: read by the real
/// `ConfigurationLoader`, changed only through the loader's own environment overrides (every
/// listener on port 0) and with its relative paths (sandbox keys, audit log) resolved in a
/// temporary directory instead of the checkout.
///
/// In-process rather than the binary (AsShippedServeTests runs that) so the listeners' real ports
/// come back from `onReady` instead of being guessed; the start mirrors PassgateServerTests'
/// `RunningPassgate`, which lives in another test target and so cannot be imported here.
struct ShippedSandboxPassgate {
    static let configurationFile = "config/passgate.yaml"
    /// The demo client's API key, documented in the configuration file.
    static let demoAPIKey = "pg_sandbox_demo_key"
    /// The configuration's MD5-mode app.
    static let md5App = "300011111111"

    let endpoints: PassgateRuntime.Endpoints
    /// The embedded sandbox's port (the shipped config enables it).
    let sandboxPort: Int?
    let directory: String
    let logs: MemoryLogSink
    let http: CurlHTTPClient

    var api: String { "http://127.0.0.1:\(endpoints.apiPort)" }
    var sandbox: String { "http://127.0.0.1:\(sandboxPort ?? 0)" }

    /// Where Prometheus scrapes this instance: the metrics listener, not the API port.
    var metricsURL: String { "http://127.0.0.1:\(endpoints.metricsPort ?? 0)/metrics" }

    /// Runs `body` against a started instance, then stops it and removes its directory.
    /// `environment` adds `PASSGATE_…` overrides (a `caFile`, say), as an operator would.
    static func with<T>(environment: [String: String] = [:], _ body: (ShippedSandboxPassgate) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-monitoring-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let overrides = ["PASSGATE_SERVER_PORT": "0", "PASSGATE_ADMIN_PORT": "0", "PASSGATE_METRICS_PORT": "0", "PASSGATE_SANDBOX_PORT": "0"].merging(environment) { $1 }
        let configuration: PassgateConfiguration
        do {
            configuration = try ConfigurationLoader(environment: overrides).load(yaml: Repository.text(configurationFile), baseDirectory: directory)
        } catch let error as ConfigurationError {
            throw Failure("\(configurationFile) does not load: \(error)")
        }

        let logs = MemoryLogSink()
        let runtime = PassgateRuntime(configuration: configuration, logSink: logs)
        let (stream, continuation) = AsyncStream<(PassgateRuntime.Endpoints, Int?)>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await EmbeddedSandbox.serve(runtime) { continuation.yield(($0, $1)) }
        }
        var iterator = stream.makeAsyncIterator()
        guard let (endpoints, sandboxPort) = await iterator.next() else {
            try await task.value
            throw Failure("the runtime stopped before listening:\n\(logs.contents.joined(separator: "\n"))")
        }
        let instance = ShippedSandboxPassgate(endpoints: endpoints, sandboxPort: sandboxPort, directory: directory, logs: logs, http: CurlHTTPClient())
        func stop() async {
            task.cancel()
            _ = try? await task.value
            await instance.http.shutdown(gracePeriodMs: 0)
        }
        do {
            let result = try await body(instance)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    /// A request to the API, with the demo client's key; returns the status and the body.
    func post(_ path: String, _ object: [String: Any]) async throws -> (status: Int, body: String) {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        let response = try await http.send(.init(
            method: .post, url: api + path, headers: [("Authorization", "Bearer \(Self.demoAPIKey)"), ("Content-Type", "application/json")],
            body: body, timeoutMs: 10_000
        ))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// A token from the sandbox, as the carrier's SDK would hand one to the app.
    func mintToken(appId: String = md5App, phone: String = "13800138000") async throws -> String {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["appId": appId, "phoneNumber": phone, "product": "login"]))
        let response = try await http.send(.init(method: .post, url: sandbox + "/sandbox/tokens", headers: [("Content-Type", "application/json")], body: body))
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], let token = object["token"] as? String else {
            throw Failure("the sandbox minted no token: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return token
    }

    /// Makes the embedded sandbox misbehave (`connectionReset`, `http500`, …) or behave (`none`).
    func setFault(_ fault: String) async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["fault": fault, "latencyMs": 0]))
        let response = try await http.send(.init(method: .put, url: sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
        guard response.status < 300 else { throw Failure("the sandbox refused fault \(fault): \(response.status)") }
    }
}

/// The metric families an instance exports, by name, with their type (`counter`, `gauge`,
/// `histogram`, `summary`), from the `# TYPE` lines of a scrape of `url`.
func scrapeMetricFamilies(_ url: String, http: CurlHTTPClient) async throws -> [String: String] {
    let response = try await http.send(.init(url: url, timeoutMs: 10_000))
    guard response.status == 200 else { throw Failure("GET \(url) answered \(response.status)") }
    return metricFamilies(inExposition: String(decoding: response.body, as: UTF8.self))
}

/// `# TYPE name type` lines of the Prometheus text format.
func metricFamilies(inExposition text: String) -> [String: String] {
    var families: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
        let words = line.split(separator: " ")
        if words.count == 4 { families[String(words[2])] = String(words[3]) }
    }
    return families
}
