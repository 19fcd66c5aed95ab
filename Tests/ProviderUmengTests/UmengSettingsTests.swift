import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderUmeng
import Testing

/// A Umeng app entry read into settings: each problem at its key.
@Suite("Umeng settings")
struct UmengSettingsTests {
    @Test("gatewayAppKey and gatewayAppSecret are read; appId is Umeng's appkey")
    func reads() throws {
        let app = try #require(UmengProvider().readApp(LiteralAppFields(appId: "umengappkey01", ["gatewayAppKey": "204000001", "gatewayAppSecret": "s3cret"])) as? UmengApp)
        #expect(app.appId == "umengappkey01" && app.gatewayAppKey == "204000001" && app.gatewayAppSecret == "s3cret")
    }

    @Test("missing, empty or unsendable values are reported at their keys", arguments: [
        ([String: String](), ["gatewayAppKey", "gatewayAppSecret"]), (["gatewayAppKey": "", "gatewayAppSecret": "s"], ["gatewayAppKey"]),
        (["gatewayAppKey": "20400 0001", "gatewayAppSecret": "s"], ["gatewayAppKey"]), (["gatewayAppKey": "k"], ["gatewayAppSecret"]),
    ])
    func problems(values: [String: String], keys: [String]) {
        let entry = LiteralAppFields(appId: "umengappkey01", values)
        #expect(UmengProvider().readApp(entry) == nil)
        #expect(entry.problems.map(\.key) == keys, "\(entry.problems)")
        #expect(entry.problems.allSatisfy { $0.message.contains("apps[0].\($0.key)") })
    }
}
