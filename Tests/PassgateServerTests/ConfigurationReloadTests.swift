import PassgateLiveTestSupport
import PassgateTestSupport
import PassgateCLI
import PassgateCore
import CarrierSandbox
import CurlTransport
import Foundation
import PassgateConfig
import ProviderCMCC
import PassgateServer
import Testing

/// `POST /admin/reload`: rotate a secret, grant and revoke access, reject a broken file - without a restart.
@Suite("configuration reload")
struct ConfigurationReloadTests {
    static let adminKey = "pg-admin-key-4e7a"
    static let newClientKey = "pg-new-client-key-81b3"

    /// A configuration file whose MD5 secret lives in `secret.txt`, pointing at `carrier`.
    struct Files {
        let directory: String
        var config: String { "\(directory)/passgate.yaml" }
        var secret: String { "\(directory)/secret.txt" }

        init(carrier: Int) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-reload-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try TestConfiguration.md5Secret.write(toFile: secret, atomically: true, encoding: .utf8)
            try write(carrier: carrier, grantNewClient: false)
        }

        func write(carrier: Int, grantNewClient: Bool, extra: String = "") throws {
            let hex = { (key: String) in TestConfiguration.hash(key).map { String(format: "%02x", $0) }.joined() }
            var yaml = """
                server: {host: 127.0.0.1, port: 0}
                metrics: {port: 0}
                admin: {host: 127.0.0.1, port: 0, apiKeySHA256: "\(hex(ConfigurationReloadTests.adminKey))"}
                providers: {cmcc: {baseURLs: ["http://127.0.0.1:\(carrier)"], connectTimeoutMs: 1000, timeoutMs: 3000}}
                apps:
                  - {appId: "\(TestConfiguration.md5App)", provider: cmcc, signMode: md5, secret: "file:\(secret)"}
                clients:
                  - {id: shop, apiKeySHA256: "\(hex(TestConfiguration.apiKey))", apps: ["\(TestConfiguration.md5App)"]}

                """
            if grantNewClient {
                yaml += "  - {id: newshop, apiKeySHA256: \"\(hex(ConfigurationReloadTests.newClientKey))\", apps: [\"\(TestConfiguration.md5App)\"]}\n"
            }
            try (yaml + extra).write(toFile: config, atomically: true, encoding: .utf8)
        }
    }

    func reload(_ passgate: RunningPassgate, key: String = adminKey) async throws -> APIAnswer {
        let port = try #require(passgate.endpoints.adminPort)
        let response = try await passgate.http.send(.init(
            method: .post, url: "http://127.0.0.1:\(port)/admin/reload", headers: [("Authorization", "Bearer \(key)")], timeoutMs: 10_000))
        return APIAnswer(status: response.status, body: response.body, headers: response.headers)
    }

    @Test("a rotated APPSecret is used after POST /admin/reload; a new client is granted; a broken file is rejected and the old config keeps serving")
    func rotateGrantReject() async throws {
        let (sandbox, port) = try await startSandbox { _ in }
        let files = try Files(carrier: port)
        let path = files.config
        try await withRunningPassgate(try ConfigurationLoader.testing(environment: ProcessInfo.processInfo.environment).load(path: path), reload: { try ConfigurationLoader.testing(environment: ProcessInfo.processInfo.environment).load(path: path) }) { passgate in
            let carrier = "http://127.0.0.1:\(port)"
            func exchange(apiKey: String = TestConfiguration.apiKey) async throws -> APIAnswer {
                let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: carrier, appId: TestConfiguration.md5App)
                return try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App, "token": token], apiKey: apiKey)
            }
            #expect(try await exchange().status == 200)

            // The carrier console rotates the secret: until Passgate reloads, its signature is rejected.
            let rotated = "ROTATEDmd5secret0123456789ABCDEF0"
            var apps = TestConfiguration.make().sandboxConfiguration.apps.filter { $0.appId == TestConfiguration.md5App }
            apps[0].changeCredentials(CMCCEmulator.Credentials.self) { $0.md5Secret = rotated }
            sandbox.replaceApps(apps)
            #expect(try await exchange().errorCode == "signature_rejected")

            try rotated.write(toFile: files.secret, atomically: true, encoding: .utf8)
            try files.write(carrier: port, grantNewClient: true)
            #expect(try await reload(passgate, key: "not-the-admin-key").status == 401)
            let applied = try await reload(passgate)
            #expect(applied.status == 200, "\(applied.body)")
            #expect(applied.json["applied"] as? [String] == ["apps", "clients"] && applied.json["generation"] as? Int == 2, "\(applied.body)")
            #expect(try await exchange().status == 200)
            #expect(try await exchange(apiKey: Self.newClientKey).status == 200)

            // A broken file (and a missing secret file) is rejected whole: 422 naming every problem, old config serving.
            try files.write(carrier: port, grantNewClient: false, extra: "servr: {}\n")
            try FileManager.default.removeItem(atPath: files.secret)
            let rejected = try await reload(passgate)
            #expect(rejected.status == 422 && rejected.errorCode == "config_invalid", "\(rejected.body)")
            let message = rejected.error["message"] as? String ?? ""
            #expect(message.contains("servr") && message.contains("apps[0].secret"), "\(message)")
            #expect(!message.contains(rotated))
            #expect(try await exchange(apiKey: Self.newClientKey).status == 200)
            #expect(passgate.logs.contents.contains { $0.contains("configuration reload rejected") })

            // Restart-only sections are reported, not silently ignored.
            try rotated.write(toFile: files.secret, atomically: true, encoding: .utf8)
            try files.write(carrier: port, grantNewClient: false, extra: "log: {level: warning}\n")
            let partial = try await reload(passgate)
            #expect(partial.json["applied"] as? [String] == ["clients"] && partial.json["restartRequired"] as? [String] == ["log"], "\(partial.body)")
            #expect(try await exchange(apiKey: Self.newClientKey).errorCode == "unauthenticated")
        }
        await sandbox.shutdown()
    }
}
