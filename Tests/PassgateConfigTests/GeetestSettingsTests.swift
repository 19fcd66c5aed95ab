import PassgateConfig
import PassgateTestSupport
import ProviderGeetest
import Testing

/// A Geetest app entry and `providers.<id>.verifyBaseURLs`, as the loader reads them.
@Suite("Geetest settings")
struct GeetestSettingsTests {
    static let provider = "providers: {geetest: {baseURLs: [\"https://onelogin.geetest.com\"], verifyBaseURLs: [\"https://onepass.geetest.com\"]}}\n"
    static let environment = Minimal.environment.merging(["GT_KEY": "0123456789abcdef0123456789abcdef", "GT_SHORT": "0123456789abcdef"]) { $1 }

    static func problemsOf(_ app: String, provider: String = Self.provider) -> [ConfigurationProblem] {
        problems(provider + "apps: [{appId: b4f2a7c3d1e0f9a8, provider: geetest\(app)}]", environment: environment)
    }

    @Test("appKey required; with encryptNumber on it must be 32 bytes (the AES-256 key); encryptNumber is true or false")
    func appRules() throws {
        #expect(Self.problemsOf("").map(\.path) == ["apps[0].appKey"])
        #expect(Self.problemsOf("").first?.message.contains("Geetest console") == true)
        let short = Self.problemsOf(", appKey: \"env:GT_SHORT\"")
        #expect(short.map(\.path) == ["apps[0].appKey"] && short.first?.message.contains("is 16 bytes") == true, "\(short)")
        #expect(Self.problemsOf(", appKey: \"env:GT_SHORT\", encryptNumber: false").isEmpty)
        #expect(Self.problemsOf(", appKey: \"env:GT_KEY\", encryptNumber: maybe").map(\.path) == ["apps[0].encryptNumber"])
        #expect(Self.problemsOf(", appKey: \"env:GT_KEY\", secret: \"env:GT_KEY\"").map(\.path) == ["apps[0].secret"])
        let yaml = Self.provider + "apps: [{appId: b4f2a7c3d1e0f9a8, provider: geetest, appKey: \"env:GT_KEY\"}]"
        let configuration = try ConfigurationLoader.testing(environment: Self.environment).load(yaml: yaml, baseDirectory: "/")
        let app = try #require(configuration.app("b4f2a7c3d1e0f9a8")?.settings as? GeetestApp)
        #expect(app.encryptNumber && app.appKey == "0123456789abcdef0123456789abcdef")
        #expect(configuration.providers["geetest"]?.verifyBaseURLs == ["https://onepass.geetest.com"])
    }

    @Test("verifyBaseURLs: optional, each URL held to the baseURLs rules")
    func verifyBaseURLs() throws {
        let app = ", appKey: \"env:GT_KEY\""
        let plain = "providers: {geetest: {baseURLs: [\"https://onelogin.geetest.com\"]}}\n"
        #expect(Self.problemsOf(app, provider: plain).isEmpty)
        let insecure = "providers: {geetest: {baseURLs: [\"https://onelogin.geetest.com\"], verifyBaseURLs: [\"http://onepass.geetest.com\"]}}\n"
        let found = Self.problemsOf(app, provider: insecure)
        #expect(found.map(\.path) == ["providers.geetest.verifyBaseURLs[0]"] && found.first?.message.contains("https") == true, "\(found)")
        let notList = "providers: {geetest: {baseURLs: [\"https://onelogin.geetest.com\"], verifyBaseURLs: \"https://onepass.geetest.com\"}}\n"
        #expect(Self.problemsOf(app, provider: notList).map(\.path) == ["providers.geetest.verifyBaseURLs"])
    }
}
