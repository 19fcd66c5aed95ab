import Logging
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Prometheus
import ProviderGeetest
import Synchronization
import Testing

@testable import PassgateServer

/// `providers.<id>.verifyBaseURLs`: a provider that verifies numbers on another host (Geetest's
/// OnePass) gets its verifications there and its phone-number calls on `baseURLs`; without the
/// key, both go to `baseURLs`.
@Suite("verifyBaseURLs")
struct VerifyBaseURLsTests {
    /// Records each request's URL and answers Geetest's success.
    final class RecordingTransport: CarrierTransport {
        let urls = Mutex<[String]>([])

        func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
            urls.withLock { $0.append(request.url) }
            let result = request.url.hasSuffix(GeetestRequest.verifyPath) ? "0" : "13900001234"
            return CarrierHTTPReply(status: 200, contentType: "application/json", body: Array(#"{"status": 200, "result": "\#(result)", "charge": true}"#.utf8))
        }
    }

    static let app = AppSettings(provider: Geetest.providerID, settings: GeetestApp(appId: "gt-route", appKey: "k", encryptNumber: false))

    static func route(verifyBaseURLs: [String]) async throws -> [String] {
        var settings = ProviderSettings(id: Geetest.providerID, baseURLs: ["https://onelogin.example.com"])
        settings.verifyBaseURLs = verifyBaseURLs
        let transport = RecordingTransport()
        let gateway = ProviderGateway(
            registry: .testing, providers: [Geetest.providerID: settings], transport: transport,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
        let fields = try ProviderFields(checking: ["processId": "flow0001"], against: GeetestProvider().providerFields, provider: Geetest.providerID)
        let logger = Logger(label: "verify-base-urls")
        #expect(try await gateway.phoneNumber(app: Self.app, token: "t1", fields: fields, logger: logger).result.get().phoneNumber == "13900001234")
        #expect(try await gateway.verify(app: Self.app, token: "t2", phoneNumber: "13900001234", fields: fields, logger: logger).result.get().result == .match)
        return transport.urls.withLock { $0 }
    }

    @Test("verifications go to verifyBaseURLs, phone numbers to baseURLs")
    func separateHosts() async throws {
        #expect(try await Self.route(verifyBaseURLs: ["https://onepass.example.com"])
            == ["https://onelogin.example.com/check_phone", "https://onepass.example.com/v2.0/check_gateway"])
    }

    @Test("without verifyBaseURLs both go to baseURLs")
    func oneHost() async throws {
        #expect(try await Self.route(verifyBaseURLs: [])
            == ["https://onelogin.example.com/check_phone", "https://onelogin.example.com/v2.0/check_gateway"])
    }
}
