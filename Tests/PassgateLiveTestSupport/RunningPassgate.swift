import PassgateTestSupport
import PassgateCore
import CurlTransport
import Foundation
import PassgateCLI
import PassgateConfig
import PassgateServer
import Testing

/// A Passgate instance running in-process on loopback, driven over real HTTP: the
/// configuration's runtime composed with the embedded sandbox as `passgate serve` composes it.
public struct RunningPassgate: Sendable {
    public let endpoints: PassgateRuntime.Endpoints
    /// The embedded sandbox's port, when the configuration enables one.
    public let sandboxPort: Int?
    public let logs: MemoryLogSink
    public let http: CurlHTTPClient
    /// The API key `post` sends unless told otherwise.
    public let apiKey: String

    /// Starts an instance, runs `body` against it, and stops it however `body` ends (a failed
    /// `#require` included), so no test leaves a server behind. `logs` outlives the instance:
    /// pass one to read what was written during the shutdown too.
    public static func with<T>(
        _ configuration: PassgateConfiguration, apiKey: String = "", clock: any PassgateClock = SystemClock(), logs: MemoryLogSink = MemoryLogSink(),
        reload: (@Sendable () throws -> PassgateConfiguration)? = nil, _ body: (RunningPassgate) async throws -> T
    ) async throws -> T {
        var runtime = PassgateRuntime(configuration: configuration, logSink: logs, clock: clock, reload: reload)
        // Tests stop instances by cancelling them, often with calls still in flight, while the
        // process runs hundreds of tests on two cores: 5 s was exceeded once, and ServiceLifecycle
        // then ends the whole test process.
        runtime.maximumCancellationDuration = .seconds(120)
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
        let instance = RunningPassgate(endpoints: endpoints, sandboxPort: sandboxPort, logs: logs, http: CurlHTTPClient(), apiKey: apiKey)
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

    /// The runtime stopped before it listened; its log says why.
    public struct StartFailure: Error, CustomStringConvertible {
        public var logs: [String]
        public var description: String { "Passgate stopped before listening:\n" + logs.joined(separator: "\n") }
    }

    public var api: String { "http://127.0.0.1:\(endpoints.apiPort)" }

    /// `GET /metrics` from the metrics listener, as Prometheus would scrape it.
    public func metrics() async throws -> String {
        let port = try #require(endpoints.metricsPort, "the metrics listener is off")
        let response = try await http.send(.init(url: "http://127.0.0.1:\(port)/metrics", timeoutMs: 10_000))
        try #require(response.status == 200, "GET /metrics answered \(response.status)")
        return String(decoding: response.body, as: UTF8.self)
    }
    public var sandbox: String { "http://127.0.0.1:\(sandboxPort ?? 0)" }

    /// A raw request to the API.
    public func send(_ method: CurlHTTPClient.Method, _ path: String, body: [UInt8] = [], headers: [(name: String, value: String)]) async throws -> APIAnswer {
        let response = try await http.send(.init(method: method, url: api + path, headers: headers, body: body, timeoutMs: 10_000))
        return APIAnswer(status: response.status, body: response.body, headers: response.headers)
    }

    /// An authenticated JSON POST to the API.
    public func post(_ path: String, _ object: [String: Any], apiKey: String? = nil, extraHeaders: [(name: String, value: String)] = []) async throws -> APIAnswer {
        let apiKey = apiKey ?? self.apiKey
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        return try await send(.post, path, body: body, headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")] + extraHeaders)
    }

    /// Mints a token from a sandbox the way the carrier SDK would hand one to the app.
    public static func mintToken(http: CurlHTTPClient, sandbox: String, appId: String, phone: String = "13800138000", product: String = "login") async throws -> String {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["appId": appId, "phoneNumber": phone, "product": product]))
        let response = try await http.send(.init(method: .post, url: sandbox + "/sandbox/tokens", headers: [("Content-Type", "application/json")], body: body))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "sandbox said \(response.status)")
        return try #require(object["token"] as? String)
    }

    public func mintToken(appId: String, phone: String = "13800138000", product: String = "login") async throws -> String {
        try await Self.mintToken(http: http, sandbox: sandbox, appId: appId, phone: phone, product: product)
    }

    /// Sets the embedded sandbox's fault over its control endpoint.
    public func setFault(_ fault: String, latencyMs: Int = 0) async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["fault": fault, "latencyMs": latencyMs]))
        let response = try await http.send(.init(method: .put, url: sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
        try #require(response.status < 300, "sandbox refused fault \(fault): \(response.status)")
    }

    /// Makes the embedded sandbox answer `provider`'s calls that would succeed with `code`
    /// instead ("" clears it).
    public func forceResultCode(_ code: String, provider: String = "cmcc") async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["resultCode": code, "provider": provider]))
        let response = try await http.send(.init(method: .put, url: sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
        try #require(response.status < 300, "sandbox refused resultCode \(code): \(response.status)")
    }
}

extension RunningPassgate {
    /// Carrier calls the sandbox at `base` has answered so far (login + verify).
    public static func sandboxCalls(http: CurlHTTPClient, base: String) async throws -> Int {
        let response = try await http.send(.init(url: base + "/sandbox/stats"))
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return (stats["loginCalls"] as? Int ?? 0) + (stats["verifyCalls"] as? Int ?? 0)
    }

    public func sandboxCalls() async throws -> Int { try await Self.sandboxCalls(http: http, base: sandbox) }
}
