import CarrierSandbox
import Logging
import PassgateConfig
import PassgateCore
import PassgateState
import PassgateTestSupport
import Prometheus
import Testing

@testable import PassgateServer

/// The integration check's exchange mode against the CMCC emulator in-process: the normal
/// exchange (replay cache, audit as client `console`), the provider's raw reply captured for this
/// call alone and shown masked, and an error explained - "why 103101?".
@Suite("the integration check, exchange")
struct IntegrationCheckExchangeTests {
    static let phone = "13800138000"

    static let configuration = InProcessPassgate.cmccConfiguration()

    /// A check over a gateway whose transport is `sandbox`.
    static func check(_ sandbox: CarrierSandbox) throws -> IntegrationCheck {
        let metrics = PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))
        let gateway = ProviderGateway(registry: configuration.registry, providers: configuration.providers, transport: sandbox, metrics: metrics)
        let exchange = try OneTimeTokenExchange(
            gateway: gateway, store: MemoryStateStore(clock: SystemClock()), replayKey: Array(repeating: 9, count: 32), ttlMs: 300_000, metrics: metrics)
        return IntegrationCheck(tokenExchange: exchange, logger: Logger(label: "test.console"))
    }

    static func shown(_ exchanged: IntegrationCheck.Exchanged) -> String {
        ([exchanged.answer] + exchanged.replies.flatMap { [$0.url, $0.body, $0.contentType ?? ""] }
            + [exchanged.error?.message ?? "", exchanged.error?.carrier?.message ?? ""]).joined(separator: "\n")
    }

    @Test("an RSA app's exchange: the reply's encrypted number, the number and the token are all masked")
    func success() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let check = try Self.check(sandbox)
        let token = try sandbox.mintToken(appId: TestConfiguration.rsaApp, phone: Self.phone)
        let exchanged = try await check.exchange(.init(appId: TestConfiguration.rsaApp, token: token, mode: .exchange), configuration: Self.configuration, requestId: "req-1")
        #expect(exchanged.status == 200 && exchanged.error == nil && !exchanged.replayed)
        let reply = try #require(exchanged.replies.first)
        #expect(exchanged.replies.count == 1 && reply.status == 200 && reply.body.contains("103000"))
        #expect(reply.body.contains("<encrypted number: "), "\(reply.body)")
        #expect(exchanged.answer.contains(#""phoneNumber":"138****8000""#) && exchanged.answer.contains(#""requestId":"req-1""#))
        let text = Self.shown(exchanged)
        #expect(!text.contains(Self.phone) && !text.contains(token), "\(text)")

        // The same token again: the replay cache answers, the provider is not called.
        let again = try await check.exchange(.init(appId: TestConfiguration.rsaApp, token: token, mode: .exchange), configuration: Self.configuration, requestId: "req-2")
        #expect(again.replayed && again.replies.isEmpty && again.status == 200)
        #expect(sandbox.carrierCalls == 1)
    }

    @Test("why 103101: the raw reply's code, signature_rejected, its meaning and the action")
    func signatureRejected() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await sandbox.forceResultCode("103101")
        let check = try Self.check(sandbox)
        let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone)
        let exchanged = try await check.exchange(.init(appId: TestConfiguration.md5App, token: token, mode: .exchange), configuration: Self.configuration, requestId: "req-3")
        let error = try #require(exchanged.error)
        #expect(error.code == .signatureRejected && error.httpStatus == 502 && exchanged.status == 502)
        #expect(error.action == .fixConfig && !error.retryable)
        #expect(error.carrier?.code == "103101" && error.message.contains("103101"))
        #expect(error.meaning == PassgateError.Code.signatureRejected.defaultMessage)
        #expect(exchanged.replies.first?.body.contains("103101") == true)
        #expect(exchanged.answer.contains(#""code":"signature_rejected""#))
        #expect(!Self.shown(exchanged).contains(token))
    }

    @Test("a verification: the phone is masked everywhere, the verdict is the REST answer's")
    func verification() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let check = try Self.check(sandbox)
        let token = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: Self.phone, product: "verify")
        let exchanged = try await check.exchange(
            .init(appId: TestConfiguration.md5App, token: token, phoneNumber: Self.phone, mode: .exchange), configuration: Self.configuration, requestId: "req-4")
        #expect(exchanged.status == 200 && exchanged.answer.contains(#""result":"match""#), "\(exchanged.answer)")
        #expect(!Self.shown(exchanged).contains(Self.phone))
    }

    @Test("the capture is filled only inside the task that set it")
    func captureIsScoped() async throws {
        let sandbox = InProcessPassgate.sandbox()
        let configuration = InProcessPassgate.cmccConfiguration()
        let gateway = ProviderGateway(
            registry: configuration.registry, providers: configuration.providers, transport: sandbox,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
        let app = try #require(configuration.app(TestConfiguration.md5App))
        let capture = CarrierReplyCapture()
        let logger = Logger(label: "test")
        _ = await gateway.phoneNumber(app: app, token: try sandbox.mintToken(appId: app.appId), fields: .none, logger: logger)
        #expect(capture.captured.isEmpty)
        _ = await capture.capturing {
            await gateway.phoneNumber(app: app, token: try! sandbox.mintToken(appId: app.appId), fields: .none, logger: logger)
        }
        #expect(capture.captured.count == 1 && capture.captured.first?.status == 200)
    }
}
