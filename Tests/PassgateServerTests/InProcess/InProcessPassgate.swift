import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import PassgateAudit
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport
import Prometheus

/// The API driven in-process: the router `PassgateRuntime.run` serves, called through
/// HummingbirdTesting's `.router` mode (no socket), with the echo provider's carrier as the
/// gateway's transport. For the contract and the error envelopes, where a socket adds nothing.
struct InProcessPassgate: Sendable {
    static let echoApp = "echoapp1"
    static let echoSecret = "echo-secret-in-process-41c7"
    static let echoNumber = "13912345670"

    let client: any TestClientProtocol

    /// `TestConfiguration.make()` (its CMCC apps, no sandbox) plus the echo provider, registered
    /// the documented way, and one echo app granted to the clients shop and shop2.
    static func configuration() throws -> PassgateConfiguration {
        var configuration = TestConfiguration.make(sandbox: false)
        configuration.registry = .testing.adding([EchoProvider()])
        configuration.providers[EchoProvider.id] = ProviderSettings(id: EchoProvider.id, baseURLs: ["https://echo.invalid"])
        configuration.apps.append(AppSettings(provider: EchoProvider.id, settings: EchoProvider.App(appId: echoApp, secret: echoSecret)))
        configuration.clients[0].apps.insert(echoApp)  // shop
        configuration.clients[2].apps.insert(echoApp)  // shop2: a second caller, for the spent-token case
        return configuration
    }

    /// Runs `body` against the router of `configuration`, with `carrier` answering its calls
    /// (the echo carrier, or a `ScriptedTransport`). Time-dependent behaviour runs on `clock`
    /// (the breaker's open window, limiter refills, the replay TTL) and, for the call caps' queue
    /// waits, on `eventLoops`; the metrics land in `registry`, the carrier calls in `audit`, the
    /// spans (tracing on, when given) in `spans`.
    static func with<T: Sendable>(
        _ configuration: PassgateConfiguration? = nil, carrier: any CarrierTransport = EchoCarrier(secret: echoSecret, number: echoNumber),
        clock: any PassgateClock = SystemClock(), registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, audit: AuditLogWriter? = nil,
        logs: MemoryLogSink = MemoryLogSink(), spans: (any SpanSink)? = nil, _ body: @Sendable (InProcessPassgate) async throws -> T
    ) async throws -> T {
        let runtime = PassgateRuntime(configuration: try configuration ?? Self.configuration(), logSink: logs, clock: clock)
        let application = try runtime.inProcessApplication(transport: carrier, registry: registry, eventLoops: eventLoops, audit: audit, spans: spans)
        return try await application.test(.router) { client in
            try await body(InProcessPassgate(client: client))
        }
    }

    /// `configuration()` with the echo provider's calls going to `baseURLs`, in order, and its
    /// lane settings changed by `change` (the breaker, the call cap).
    static func configuration(echoBaseURLs baseURLs: [String], _ change: (inout ProviderSettings) -> Void = { _ in }) throws -> PassgateConfiguration {
        var configuration = try configuration()
        configuration.providers[EchoProvider.id]?.baseURLs = baseURLs
        change(&configuration.providers[EchoProvider.id]!)
        return configuration
    }

    /// A phone-number request for the echo app.
    func phoneNumber(_ token: String, apiKey: String = TestConfiguration.apiKey) async throws -> APIAnswer {
        try await post("/v1/phone-number", ["appId": Self.echoApp, "token": token], apiKey: apiKey)
    }

    /// The Prometheus text of `registry`, as the metrics listener would serve it.
    static func metrics(_ registry: PrometheusCollectorRegistry) -> String {
        String(decoding: registry.emitToBuffer(), as: UTF8.self)
    }

    /// A raw request.
    func send(_ method: HTTPRequest.Method, _ path: String, body: [UInt8] = [], headers: [(name: String, value: String)] = []) async throws -> APIAnswer {
        try await sendRaw(method, path, body: body, headers: headers).answer
    }

    /// What came back, before it is read as JSON (an `APIAnswer` is not `Sendable`; this is).
    struct RawAnswer: Sendable {
        var status: Int
        var body: [UInt8]
        var headers: [(name: String, value: String)]
        var answer: APIAnswer { APIAnswer(status: status, body: body, headers: headers) }
    }

    private func sendRaw(_ method: HTTPRequest.Method, _ path: String, body: [UInt8], headers: [(name: String, value: String)]) async throws -> RawAnswer {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let response = try await client.execute(uri: path, method: method, headers: fields, body: body.isEmpty ? nil : ByteBuffer(bytes: body))
        return RawAnswer(status: response.status.code, body: Array(response.body.readableBytesView), headers: response.headers.map { ($0.name.rawName, $0.value) })
    }

    /// An authenticated JSON POST sent from a task of its own, for a request the test lets wait
    /// (held by the carrier, queued for a slot) while it sends others: `try await task.value.answer`.
    func start(_ path: String, _ object: [String: any Sendable]) throws -> Task<RawAnswer, any Error> {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        let headers = [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")]
        return Task { try await sendRaw(.post, path, body: body, headers: headers) }
    }

    /// An authenticated JSON POST.
    func post(_ path: String, _ object: [String: any Sendable], apiKey: String = TestConfiguration.apiKey,
              extraHeaders: [(name: String, value: String)] = []) async throws -> APIAnswer {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        return try await send(.post, path, body: body, headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")] + extraHeaders)
    }
}
