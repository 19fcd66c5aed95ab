import Foundation
import PassgateConfig
import PassgateTestSupport
import ProviderJVerification
import Testing

/// `apps[].endpoint` of a JVerification app, as `check-config` reads it.
@Suite("JVerification endpoint setting")
struct JVerificationEndpointSettingsTests {
    static let provider = "providers: {jverification: {baseURLs: [\"https://api.verification.jpush.cn\"]}}\n"

    static func app(_ endpoint: String, sandbox: Bool = false) -> String {
        provider + "apps: [{appId: up-shop, provider: jverification, appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", endpoint: \(endpoint)}]"
            + (sandbox ? "\nsandbox: {enabled: true}" : "")
    }

    @Test("an https URL with a path is split into base URL and path")
    func loads() throws {
        let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Self.app("\"https://sim-api.upyun.com/login/token/verify\""), baseDirectory: "/")
        let app = try #require(configuration.app("up-shop")?.settings as? JVerificationApp)
        #expect(app.endpoint == JVerificationApp.Endpoint(baseURL: "https://sim-api.upyun.com", path: "/login/token/verify"))
        let plain = try ConfigurationLoader.testing(environment: Minimal.environment).load(
            yaml: Self.provider + "apps: [{appId: jg, provider: jverification, appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\"}]", baseDirectory: "/")
        #expect((plain.app("jg")?.settings as? JVerificationApp)?.endpoint == nil)
    }

    @Test("with the sandbox enabled only the path is kept: the sandbox, at the provider's base URL, answers on it")
    func sandbox() throws {
        let yaml = Self.app("\"https://sim-api.upyun.com/login/token/verify\"", sandbox: true)
        let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: yaml, baseDirectory: "/tmp")
        #expect((configuration.app("up-shop")?.settings as? JVerificationApp)?.endpoint == JVerificationApp.Endpoint(baseURL: nil, path: "/login/token/verify"))
    }

    @Test("each malformed endpoint is reported at apps[0].endpoint", arguments: [
        "\"http://sim-api.upyun.com/login/token/verify\"", "\"https://sim-api.upyun.com\"", "\"https://sim-api.upyun.com/\"",
        "\"https://sim-api.upyun.com/login?x=1\"", "\"sim-api.upyun.com/login/token/verify\"", "\"https://user:pw@sim-api.upyun.com/login\"",
        "[\"https://sim-api.upyun.com/login\"]", "\"https://sim-api.upyun.com/log in\"",
    ])
    func refused(endpoint: String) {
        #expect(problems(Self.app(endpoint), environment: Minimal.environment).map(\.path) == ["apps[0].endpoint"])
    }

    @Test("with an endpoint, apiVersion 2 is refused: the endpoint names the login API")
    func noVersionTwo() {
        let yaml = Self.app("\"https://sim-api.upyun.com/login/token/verify\"").replacingOccurrences(of: "}]", with: ", apiVersion: 2}]")
        #expect(problems(yaml, environment: Minimal.environment).map(\.path) == ["apps[0].apiVersion"])
    }
}
