import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderMobTech
import Testing

/// A MobTech app entry read into settings: each problem at its key, and single DES checked at load.
@Suite("MobTech settings")
struct MobTechSettingsTests {
    @Test("appSecret is read; the app's id is MobTech's appkey")
    func reads() throws {
        let app = try #require(MobTechProvider().readApp(LiteralAppFields(appId: "mob-shop", ["appSecret": "mobAppSecret0001xyz"])) as? MobTechApp)
        #expect(app.appId == "mob-shop" && app.appSecret == "mobAppSecret0001xyz" && app.desKey == Array("mobAppSe".utf8))
    }

    @Test("a missing, empty or short appSecret is reported at its key", arguments: [
        ([:], "is required"), (["appSecret": ""], "is empty"), (["appSecret": "short"], "has 5 bytes"),
    ])
    func problems(values: [String: String], fragment: String) {
        let entry = LiteralAppFields(appId: "mob-shop", values)
        #expect(MobTechProvider().readApp(entry) == nil)
        #expect(entry.problems.map(\.key) == ["appSecret"] && entry.problems.first?.message.contains(fragment) == true, "\(entry.problems)")
        #expect(entry.problems.first?.message.contains("apps[0].appSecret") == true)
    }

    @Test("without OpenSSL's legacy module the app fails at load, naming the app, the module and what to install")
    func legacyModuleMissing() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("pg-mob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = DESCBC.load(modulesDirectory: empty.path)
        let entry = LiteralAppFields(appId: "mob-shop", ["appSecret": "mobAppSecret0001xyz"])
        #expect(MobTechProvider(des: { missing }).readApp(entry) == nil)
        let message = try #require(entry.problems.first { $0.key == "provider" }?.message)
        #expect(message.contains("mob-shop") && message.contains("legacy") && message.contains("libssl3"), "\(message)")
    }
}
