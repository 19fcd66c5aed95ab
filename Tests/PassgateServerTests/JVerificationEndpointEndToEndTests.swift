import Foundation
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderJVerification
import Testing

/// A JVerification reseller app (its own endpoint path) end to end: the REST API, the gateway,
/// libcurl and the sandbox, which answers on the app's path.
@Suite("JVerification reseller endpoint end to end")
struct JVerificationEndpointEndToEndTests {
    static let app = "up-shop"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(provider: JVerification.providerID, settings: JVerificationApp(
            appId: app, appKey: "UPappKEY01", masterSecret: "UPmasterSECRET01", privateKey: TestRSAKeys.primary1024,
            endpoint: .init(baseURL: nil, path: "/login/token/verify"))))
        configuration.clients[0].apps.insert(app)
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    @Test("the number through the app's own path; the spent token is token_invalid (9003)")
    func exchange() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900002468")
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token])
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900002468", "\(first.body)")
            let again = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            // Another client: a new exchange, which the sandbox answers on the same path with 9003.
            #expect(again.status == 422 && again.errorCode == "token_invalid", "\(again.body)")
            #expect((again.error["carrier"] as? [String: Any])?["code"] as? String == "9003", "\(again.body)")
        }
    }
}
