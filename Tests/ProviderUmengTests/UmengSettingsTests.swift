import OpenSSLCrypto
import PassgateCore
import ProviderUmeng
import Testing

/// A Umeng app entry read into settings: each problem at its key.
@Suite("Umeng settings")
struct UmengSettingsTests {
    /// An app entry with literal values, recording the problems reported (the configuration
    /// reader's role; its secret resolution is tested with it).
    final class Entry: AppFieldReader {
        let values: [String: String]
        var problems: [(key: String, message: String)] = []

        init(_ values: [String: String]) { self.values = values }

        var appId: String { "umengappkey01" }
        var sandboxEnabled: Bool { false }
        func isPresent(_ key: String) -> Bool { values[key] != nil }
        func path(of key: String) -> String { "apps[0].\(key)" }
        func choice(_ key: String, _ options: [String]) -> String? { values[key].flatMap { options.contains($0) ? $0 : nil } }
        func secret(_ key: String, purpose: String) -> String? { values[key] }
        func privateKey(_ key: String) -> RSAPrivateKey? { nil }
        func report(_ key: String, _ message: String) { problems.append((key, message)) }
        var hasProblems: Bool { !problems.isEmpty }
    }

    @Test("gatewayAppKey and gatewayAppSecret are read; appId is Umeng's appkey")
    func reads() throws {
        let app = try #require(UmengProvider().readApp(Entry(["gatewayAppKey": "204000001", "gatewayAppSecret": "s3cret"])) as? UmengApp)
        #expect(app.appId == "umengappkey01" && app.gatewayAppKey == "204000001" && app.gatewayAppSecret == "s3cret")
    }

    @Test("missing, empty or unsendable values are reported at their keys", arguments: [
        ([String: String](), ["gatewayAppKey", "gatewayAppSecret"]), (["gatewayAppKey": "", "gatewayAppSecret": "s"], ["gatewayAppKey"]),
        (["gatewayAppKey": "20400 0001", "gatewayAppSecret": "s"], ["gatewayAppKey"]), (["gatewayAppKey": "k"], ["gatewayAppSecret"]),
    ])
    func problems(values: [String: String], keys: [String]) {
        let entry = Entry(values)
        #expect(UmengProvider().readApp(entry) == nil)
        #expect(entry.problems.map(\.key) == keys, "\(entry.problems)")
        #expect(entry.problems.allSatisfy { $0.message.contains("apps[0].\($0.key)") })
    }
}
