import Foundation
import OpenSSLCrypto
import PassgateCore
import ProviderMobTech
import Testing

/// A MobTech app entry read into settings: each problem at its key, and single DES checked at load.
@Suite("MobTech settings")
struct MobTechSettingsTests {
    /// An app entry with literal values, recording the problems reported (the configuration
    /// reader's role; its secret resolution is tested with it).
    final class Entry: AppFieldReader {
        let values: [String: String]
        var problems: [(key: String, message: String)] = []

        init(_ values: [String: String]) { self.values = values }

        var appId: String { "mob-shop" }
        var sandboxEnabled: Bool { false }
        func isPresent(_ key: String) -> Bool { values[key] != nil }
        func path(of key: String) -> String { "apps[0].\(key)" }
        func choice(_ key: String, _ options: [String]) -> String? { values[key].flatMap { options.contains($0) ? $0 : nil } }
        func secret(_ key: String, purpose: String) -> String? { values[key] }
        func privateKey(_ key: String) -> RSAPrivateKey? { nil }
        func report(_ key: String, _ message: String) { problems.append((key, message)) }
        var hasProblems: Bool { !problems.isEmpty }
    }

    @Test("appSecret is read; the app's id is MobTech's appkey")
    func reads() throws {
        let app = try #require(MobTechProvider().readApp(Entry(["appSecret": "mobAppSecret0001xyz"])) as? MobTechApp)
        #expect(app.appId == "mob-shop" && app.appSecret == "mobAppSecret0001xyz" && app.desKey == Array("mobAppSe".utf8))
    }

    @Test("a missing, empty or short appSecret is reported at its key", arguments: [
        ([:], "is required"), (["appSecret": ""], "is empty"), (["appSecret": "short"], "has 5 bytes"),
    ])
    func problems(values: [String: String], fragment: String) {
        let entry = Entry(values)
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
        let entry = Entry(["appSecret": "mobAppSecret0001xyz"])
        #expect(MobTechProvider(des: { missing }).readApp(entry) == nil)
        let message = try #require(entry.problems.first { $0.key == "provider" }?.message)
        #expect(message.contains("mob-shop") && message.contains("legacy") && message.contains("libssl3"), "\(message)")
    }
}
