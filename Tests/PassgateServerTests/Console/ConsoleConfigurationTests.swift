import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateConsole
import PassgateCore
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// The configuration page and its reload button, in-process.
@Suite("console configuration")
struct ConsoleConfigurationTests {
    /// A configuration loaded the real way, with secrets from the environment, a file and a literal.
    static func loaded(secretFile: String) throws -> PassgateConfiguration {
        let yaml = """
            admin: {port: 0, apiKeySHA256: "\(Hex.lowercase(try Digest.sha256(Array(TestConfiguration.adminKey.utf8))))"}
            state: {replayKey: "file:\(secretFile)"}
            providers: {cmcc: {baseURLs: ["https://cmcc.invalid"]}}
            apps:
              - {appId: "300011111111", provider: cmcc, signMode: md5, secret: "env:CONSOLE_TEST_SECRET"}
            clients:
              - {id: shop, apiKeySHA256: "\(String(repeating: "ab", count: 32))", apps: ["300011111111"], ratePerSecond: 50}
            """
        var configuration = try ConfigurationLoader.testing(environment: ["CONSOLE_TEST_SECRET": "SECRETconsoleA1b2C3d4E5f6A7b8C9d0"])
            .load(yaml: yaml, baseDirectory: "/")
        configuration.registry = try ConsoleHarness.configuration().registry
        return configuration
    }

    @Test("every secret is shown as its source and fingerprint, never its value; sections and clients are listed")
    func secretsBySource() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let replayKey = String(repeating: "5e", count: 32)
        let file = directory.appendingPathComponent("replay-key").path
        try replayKey.write(toFile: file, atomically: true, encoding: .utf8)
        let configuration = try Self.loaded(secretFile: file)
        try await ConsoleHarness.with(configuration) { console in
            let session = try await console.signIn()
            let answer = try await console.get("/console/configuration", cookie: session.cookie)
            let page = String(buffer: answer.body)
            #expect(answer.status == .ok && page.contains("<h1>Configuration</h1>"))
            let appSecret = SecretSource.fingerprint(of: Array("SECRETconsoleA1b2C3d4E5f6A7b8C9d0".utf8))
            #expect(page.contains("<tr><td><code>apps[0].secret</code></td><td>300011111111</td><td><code>env:CONSOLE_TEST_SECRET</code></td><td><code>\(appSecret)</code></td></tr>"))
            #expect(page.contains("<code>file:\(file)</code></td><td><code>\(SecretSource.fingerprint(of: Array(replayKey.utf8)))</code>"))
            #expect(page.contains("<td><code>clients[0].apiKeySHA256</code></td><td>client shop</td><td><code>SHA-256 in the file</code></td><td><code>abababababababab</code>"))
            #expect(!page.contains("SECRETconsole") && !page.contains(replayKey) && !page.contains(TestConfiguration.adminKey))
            #expect(page.contains("<h2>providers.cmcc</h2>") && page.contains("<h2>apps[0]</h2>") && page.contains("rate: 50/s"))
            #expect(page.contains("No provider pins a CA bundle"))
        }
    }

    @Test("the reload button runs the reload behind the CSRF check and shows what was applied and what needs a restart")
    func reloadButton() async throws {
        try await ConsoleHarness.with { console in
            let session = try await console.signIn()
            let refused = try await console.postForm("/console/configuration/reload", [:], cookie: session.cookie)
            #expect(refused.status == .forbidden)
            let reloaded = try await console.postForm("/console/configuration/reload", ["csrf": session.csrf], cookie: session.cookie)
            let page = String(buffer: reloaded.body)
            #expect(reloaded.status == .ok && page.contains("<h2 id=\"reload-report\">Reloaded</h2>"), "\(page)")
            #expect(page.contains("<dt>Applied</dt><dd>nothing changed that applies without a restart</dd>"))
            #expect(page.contains("<dt>Needs a restart</dt><dd>nothing</dd>"))
        }
    }

    @Test("a CA bundle's earliest expiry is read, and an unreadable one is named")
    func certificates() throws {
        var configuration = try ConsoleHarness.configuration()
        configuration.providers["echo"]?.caFile = "/nonexistent/ca.pem"
        let certificates = ConsoleController.certificates(configuration, nowSeconds: 0)
        #expect(certificates.count == 1 && certificates[0].provider == "echo" && certificates[0].problem != nil)
        configuration.providers["echo"]?.caFile = "/etc/ssl/certs/ca-certificates.crt"
        if FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt") {
            let system = ConsoleController.certificates(configuration, nowSeconds: 0)
            #expect(system.first?.problem == nil && (system.first?.daysLeft ?? 0) > 0 && system.first?.notAfter.isEmpty == false)
        }
    }
}
