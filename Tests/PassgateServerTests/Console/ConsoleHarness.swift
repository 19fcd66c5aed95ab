import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Prometheus
import Testing

@testable import PassgateServer

/// The admin listener's router with its console, driven in-process (HummingbirdTesting's
/// `.router`), on a manual clock: sign in, then requests with the session cookie.
struct ConsoleHarness: Sendable {
    let client: any TestClientProtocol
    let clock: ManualClock
    /// The gateway whose calls the overview shows; the test calls it directly.
    let gateway: ProviderGateway
    let configuration: PassgateConfiguration

    /// Runs `body` against the admin router of `configuration` (the in-process configuration with
    /// the echo app, and the admin key), whose gateway calls `carrier`.
    static func with<T: Sendable>(
        _ configuration: PassgateConfiguration? = nil, carrier: any CarrierTransport = EchoCarrier(
            secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber),
        clock: ManualClock = ManualClock(milliseconds: 1_764_400_000_000),
        _ body: @Sendable (ConsoleHarness) async throws -> T
    ) async throws -> T {
        let configuration = try configuration ?? Self.configuration()
        let metrics = PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        let live = LiveSettings(RequestSettings(configuration: configuration, generation: 1, clock: clock))
        let reloader = ConfigurationReloader(running: configuration, live: live, logger: Logger(label: "test"), load: { configuration })
        let gateway = ProviderGateway(
            registry: configuration.registry, providers: configuration.providers, transport: carrier, clock: clock, metrics: metrics)
        let router = buildAdminRouter(
            reloader: reloader, readiness: Readiness(checks: []), keyHash: try #require(configuration.admin.apiKeySHA256), metrics: metrics,
            console: ConsoleDependencies(
                settings: configuration.admin, clock: clock, authFailuresPerMinute: configuration.server.authFailuresPerMinute, gateway: gateway),
            logger: Logger(label: "test"))
        return try await Application(router: router).test(.router) { client in
            try await body(ConsoleHarness(client: client, clock: clock, gateway: gateway, configuration: configuration))
        }
    }

    /// `InProcessPassgate.configuration()` with the admin key.
    static func configuration() throws -> PassgateConfiguration {
        TestConfiguration.withAdmin(try InProcessPassgate.configuration())
    }

    /// One phone-number call of the echo app through the gateway, as an API request would make it.
    @discardableResult
    func exchange(_ token: String) async throws -> CarrierExchange<PhoneNumberOutcome> {
        let app = try #require(configuration.apps.first { $0.appId == InProcessPassgate.echoApp })
        return await gateway.phoneNumber(app: app, token: token, fields: .none, logger: Logger(label: "test"))
    }

    /// What a browser holds after signing in: the cookie header and the CSRF token of its forms.
    struct Session: Sendable {
        var cookie: String
        var csrf: String
    }

    /// Signs in through the form; fails the test unless it succeeds.
    func signIn(key: String = TestConfiguration.adminKey, headers: HTTPFields = [:]) async throws -> Session {
        let response = try await postForm("/console/sign-in", ["key": key], headers: headers)
        #expect(response.status == .seeOther && response.headers[.location] == "/console")
        let setCookie = try #require(response.headers[.setCookie])
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        let page = try await get("/console", cookie: cookie)
        return Session(cookie: cookie, csrf: try #require(Self.csrf(in: String(buffer: page.body))))
    }

    func get(_ path: String, cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: path, method: .get, headers: headers)
    }

    func postForm(_ path: String, _ fields: [String: String], cookie: String? = nil, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let cookie { headers[.cookie] = cookie }
        let body = fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// The value of the first hidden `csrf` field of `page`.
    static func csrf(in page: String) -> String? {
        guard let start = page.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }
}
