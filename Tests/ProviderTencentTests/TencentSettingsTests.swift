import PassgateConfig
import PassgateTestSupport
import ProviderTencent
import Testing

/// A Tencent Cloud app entry as `check-config` reads it.
@Suite("Tencent Cloud app settings")
struct TencentSettingsTests {
    static let environment = ["TC_KEY": "tcAppKey0001", "EMPTY": ""]
    static let provider = "providers: {tencent: {baseURLs: [\"https://yun.tim.qq.com\"]}}\n"

    static func problems(_ appId: String, _ app: String) -> [String] {
        do {
            _ = try ConfigurationLoader.testing(environment: environment).load(yaml: provider + "apps: [{appId: \"\(appId)\", provider: tencent\(app)}]", baseDirectory: "/")
            return []
        } catch {
            return error.problems.map(\.path)
        }
    }

    @Test("a complete entry loads; the sdkappid must be digits and appKey is required and not empty")
    func rules() throws {
        let yaml = Self.provider + "apps: [{appId: \"1400123456\", provider: tencent, appKey: \"env:TC_KEY\"}]"
        let app = try #require(try ConfigurationLoader.testing(environment: Self.environment).load(yaml: yaml, baseDirectory: "/").app("1400123456")?.settings as? TencentApp)
        #expect(app.appKey == "tcAppKey0001")
        #expect(Self.problems("1400123456", "") == ["apps[0].appKey"])
        #expect(Self.problems("1400123456", ", appKey: \"env:EMPTY\"") == ["apps[0].appKey"])
        #expect(Self.problems("tc-shop", ", appKey: \"env:TC_KEY\"") == ["apps[0].appId"])
        #expect(Self.problems("tc-shop", "") == ["apps[0].appId", "apps[0].appKey"])
    }
}
