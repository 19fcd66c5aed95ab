import Foundation
import PassgateTestSupport
import PassgateConfig

/// Temporary directories, files and the shipped configs, for loader tests.
enum TestFiles {
    /// The package root (this file is `Tests/PassgateConfigTests/Support/TestFiles.swift`).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The text of a shipped config, e.g. `config/passgate.yaml`.
    static func shipped(_ relativePath: String) throws -> String {
        try String(contentsOfFile: "\(packageRoot)/\(relativePath)", encoding: .utf8)
    }

    /// A fresh private directory, removed by `body`'s end.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        var template = Array("\(NSTemporaryDirectory())/passgate-config-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let path = URL(fileURLWithPath: String(cString: created)).standardizedFileURL.path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    static func write(_ text: String, to path: String, mode: Int = 0o600) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
            throw TestFailure("cannot write \(path)")
        }
    }

    /// A PEM-armoured certificate bundle as far as the loader looks (it only checks the armour).
    static let certificatePEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

    /// Runs the `openssl` command line and returns its standard output.
    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let result = try Subprocess.runBlocking("openssl", arguments)
        guard result.status == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")) failed: \(result.stderrText)") }
        return result.stdoutText
    }

    /// `path` written relative to the current working directory (`../../tmp/…`), without changing it.
    static func relativeToWorkingDirectory(_ path: String) -> String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents.dropFirst()
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents.dropFirst()
        var common = 0
        while common < min(cwd.count, target.count), cwd[cwd.startIndex + common] == target[target.startIndex + common] { common += 1 }
        let ups = Array(repeating: "..", count: cwd.count - common)
        return (ups + target.dropFirst(common)).joined(separator: "/")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Loads `yaml` and returns its problems (empty when it loaded).
func problems(_ yaml: String, environment: [String: String] = [:], baseDirectory: String = "/") -> [ConfigurationProblem] {
    do {
        _ = try ConfigurationLoader.testing(environment: environment, sandboxFaults: Minimal.sandboxFaults).load(yaml: yaml, baseDirectory: baseDirectory)
        return []
    } catch {
        return error.problems
    }
}

/// A minimal valid production-shaped configuration (sandbox off, env: secrets) to vary in tests.
enum Minimal {
    static let environment = ["APP_SECRET": "0123456789ABCDEF0123456789ABCDEF"]
    /// Faults as a composing sandbox would pass them (the loader itself knows none).
    static let sandboxFaults = ["http500", "http502", "wrongInResponseTo"]
    static let keyHash = "61f75753dd926f8570615e0b9bc5f3b60b8a04949c33e310ad1e060e6b47178b"

    static func yaml(server: String = "", state: String = "", provider: String = "", app: String = "", client: String = "", sandbox: String = "") -> String {
        """
        server: {\(server)}
        state: {\(state)}
        providers:
          cmcc: {baseURLs: ["https://www.cmpassport.com"]\(provider.isEmpty ? "" : ", " + provider)}
        apps:
          - {appId: "300011111111", signMode: md5, secret: "env:APP_SECRET"\(app.isEmpty ? "" : ", " + app)}
        clients:
          - {id: shop-backend, apiKeySHA256: "\(keyHash)", apps: ["300011111111"]\(client.isEmpty ? "" : ", " + client)}
        sandbox: {\(sandbox)}
        """
    }
}
