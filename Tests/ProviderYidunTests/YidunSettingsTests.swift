import PassgateConfig
import PassgateTestSupport
import ProviderYidun
import Testing

/// A Yidun app entry as `check-config` reads it: every key required, every problem named by path.
@Suite("NetEase Yidun app settings")
struct YidunSettingsTests {
    static let environment = ["YD_BIZ": "bizid0001", "YD_ID": "sid0001", "YD_KEY": "yidunSecretKey0001", "YD_SPACED": "biz 1", "EMPTY": ""]
    static let provider = "providers: {yidun: {baseURLs: [\"https://ye.dun.163.com\"]}}\n"

    static func problems(_ app: String) -> [String] {
        do {
            _ = try ConfigurationLoader.testing(environment: environment).load(yaml: provider + "apps: [{appId: yd-shop, provider: yidun\(app)}]", baseDirectory: "/")
            return []
        } catch {
            return error.problems.map(\.path)
        }
    }

    @Test("a complete entry loads with its values (outside the sandbox every value as env: or file:)")
    func loads() throws {
        let yaml = Self.provider + "apps: [{appId: yd-shop, provider: yidun, businessId: \"env:YD_BIZ\", secretId: \"env:YD_ID\", secretKey: \"env:YD_KEY\"}]"
        let loaded = try ConfigurationLoader.testing(environment: Self.environment).load(yaml: yaml, baseDirectory: "/")
        let app = try #require(loaded.app("yd-shop")?.settings as? YidunApp)
        #expect(app.businessId == "bizid0001" && app.secretId == "sid0001" && app.secretKey == "yidunSecretKey0001")
    }

    @Test("every missing key is named at once; an empty or spaced value and an unknown key are refused")
    func problems() {
        #expect(Self.problems("") == ["apps[0].businessId", "apps[0].secretId", "apps[0].secretKey"])
        #expect(Self.problems(", businessId: \"env:YD_BIZ\", secretId: \"env:YD_ID\", secretKey: \"env:EMPTY\"") == ["apps[0].secretKey"])
        #expect(Self.problems(", businessId: \"env:YD_SPACED\", secretId: \"env:YD_ID\", secretKey: \"env:YD_KEY\"") == ["apps[0].businessId"])
        #expect(Self.problems(", businessId: \"env:YD_BIZ\", secretId: \"env:YD_ID\", secretKey: \"env:YD_KEY\", appKey: x") == ["apps[0].appKey"])
    }
}
