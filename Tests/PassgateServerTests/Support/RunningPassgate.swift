import PassgateTestSupport
import PassgateCore
import CurlTransport
import Foundation
import PassgateCLI
import PassgateConfig
import PassgateServer
import Testing

/// A Passgate instance running in-process on loopback, driven over real HTTP.
struct RunningPassgate {
    let endpoints: PassgateRuntime.Endpoints
    /// The embedded sandbox's port, when the configuration enables one (composed as `passgate serve` does).
    let sandboxPort: Int?
    let logs: MemoryLogSink
    let http: CurlHTTPClient
    private let task: Task<Void, any Error>

    /// A decoded JSON answer.
    struct Answer {
        var status: Int
        var json: [String: Any]
        var headers: [(name: String, value: String)]
        var body: String

        var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
        var errorCode: String? { error["code"] as? String }
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    static func start(
        _ configuration: PassgateConfiguration, clock: any WallClock = SystemWallClock(),
        reload: (@Sendable () throws -> PassgateConfiguration)? = nil
    ) async throws -> RunningPassgate {
        let logs = MemoryLogSink()
        let runtime = PassgateRuntime(configuration: configuration, logSink: logs, clock: clock, reload: reload)
        let (stream, continuation) = AsyncStream<(PassgateRuntime.Endpoints, Int?)>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await EmbeddedSandbox.serve(runtime) { continuation.yield(($0, $1)) }
        }
        var iterator = stream.makeAsyncIterator()
        guard let (endpoints, sandboxPort) = await iterator.next() else {
            try await task.value
            throw StartFailure(logs: logs.contents)
        }
        return RunningPassgate(endpoints: endpoints, sandboxPort: sandboxPort, logs: logs, http: CurlHTTPClient(), task: task)
    }

    struct StartFailure: Error { var logs: [String] }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        await http.shutdown(gracePeriodMs: 0)
    }

    var api: String { "http://127.0.0.1:\(endpoints.apiPort)" }

    /// `GET /metrics` from the metrics listener, as Prometheus would scrape it.
    func metrics() async throws -> String {
        let port = try #require(endpoints.metricsPort, "the metrics listener is off")
        let response = try await http.send(.init(url: "http://127.0.0.1:\(port)/metrics", timeoutMs: 10_000))
        try #require(response.status == 200, "GET /metrics answered \(response.status)")
        return String(decoding: response.body, as: UTF8.self)
    }
    var sandbox: String { "http://127.0.0.1:\(sandboxPort ?? 0)" }

    /// A raw request to the API.
    func send(_ method: CurlHTTPClient.Method, _ path: String, body: [UInt8] = [], headers: [(name: String, value: String)]) async throws -> Answer {
        let response = try await http.send(.init(method: method, url: api + path, headers: headers, body: body, timeoutMs: 10_000))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return Answer(status: response.status, json: json, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
    }

    /// An authenticated JSON POST to the API.
    func post(_ path: String, _ object: [String: Any], apiKey: String = TestConfiguration.apiKey, extraHeaders: [(name: String, value: String)] = []) async throws -> Answer {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        return try await send(.post, path, body: body, headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")] + extraHeaders)
    }

    /// Mints a token from a sandbox the way the carrier SDK would hand one to the app.
    static func mintToken(http: CurlHTTPClient, sandbox: String, appId: String, phone: String = "13800138000", product: String = "login") async throws -> String {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["appId": appId, "phoneNumber": phone, "product": product]))
        let response = try await http.send(.init(method: .post, url: sandbox + "/sandbox/tokens", headers: [("Content-Type", "application/json")], body: body))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "sandbox said \(response.status)")
        return try #require(object["token"] as? String)
    }

    func mintToken(appId: String, phone: String = "13800138000", product: String = "login") async throws -> String {
        try await Self.mintToken(http: http, sandbox: sandbox, appId: appId, phone: phone, product: product)
    }

    /// Sets the embedded sandbox's fault over its control endpoint.
    func setFault(_ fault: String, latencyMs: Int = 0) async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["fault": fault, "latencyMs": latencyMs]))
        let response = try await http.send(.init(method: .put, url: sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
        try #require(response.status < 300, "sandbox refused fault \(fault): \(response.status)")
    }

    /// Makes the embedded sandbox answer calls that would succeed with `code` instead ("" clears it).
    func forceResultCode(_ code: String) async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["resultCode": code]))
        let response = try await http.send(.init(method: .put, url: sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
        try #require(response.status < 300, "sandbox refused resultCode \(code): \(response.status)")
    }
}

extension RunningPassgate {
    /// Carrier calls the sandbox at `base` has answered so far (login + verify).
    static func sandboxCalls(http: CurlHTTPClient, base: String) async throws -> Int {
        let response = try await http.send(.init(url: base + "/sandbox/stats"))
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return (stats["loginCalls"] as? Int ?? 0) + (stats["verifyCalls"] as? Int ?? 0)
    }

    func sandboxCalls() async throws -> Int { try await Self.sandboxCalls(http: http, base: sandbox) }
}
