import CurlTransport
import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

@Suite("passgate serve and check-config")
struct ServeCommandTests {
    static let apiKey = "cli-serve-test-key"

    /// A sandbox-enabled config on ephemeral ports, with its key directory in `directory`.
    static func writeConfig(in directory: String) throws -> String {
        let hash = Hex.lowercase(try Digest.sha256(Array(apiKey.utf8)))
        let yaml = """
            server: {host: 127.0.0.1, port: 0}
            metrics: {port: 0}
            log: {level: info, format: json}
            providers: {cmcc: {connectTimeoutMs: 1000, timeoutMs: 3000}}
            apps:
              - {appId: "300011111111", provider: cmcc, signMode: md5, secret: "CLITESTsecret0123456789ABCDEF0123", appKey: "CLITESTappkey123"}
              - {appId: "300022222222", provider: cmcc, signMode: rsa, privateKey: "sandbox:cli-rsa"}
            clients:
              - {id: cli, apiKeySHA256: "\(hash)", apps: ["300011111111", "300022222222"]}
            sandbox: {enabled: true, host: 127.0.0.1, port: 0, keyDirectory: "\(directory)/keys"}
            audit: {path: "\(directory)/audit/audit.jsonl"}
            """
        let path = "\(directory)/passgate.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        try TestRSAKeys.seedSandboxKeys(referencedIn: yaml, in: "\(directory)/keys")
        return path
    }

    /// Polls `path` until `pattern` matches, returning the first capture group.
    static func waitFor(_ pattern: String, in path: String, seconds: Double = 30) async throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), let range = Range(match.range(at: 1), in: text) {
                return String(text[range])
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        Issue.record("'\(pattern)' never appeared in \(path): \(text.suffix(2000))")
        throw CancellationError()
    }

    @Test("serve under TZ=UTC, on the event loops PASSGATE_SERVER_EVENTLOOPS asks for (and 64 requests in flight per loop on them), exchanges a sandbox token end to end, then exits 0 on SIGTERM")
    func serveUnderUTC() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let config = try Self.writeConfig(in: directory)
        let process = try Subprocess.launch(
            ProcessRunner.passgate, ["serve", "--config", config], environment: ["TZ": "UTC", "PASSGATE_SERVER_EVENTLOOPS": "3"],
            stdoutPath: "\(directory)/out.log", stderrPath: "\(directory)/err.log")
        defer { process.terminate() }

        let apiPort = try await Self.waitFor(#""msg":"listening",[^\n]*?"port":"(\d+)""#, in: "\(directory)/out.log")
        #expect(try await Self.waitFor(#""msg":"listening","eventLoops":"(\d+)""#, in: "\(directory)/out.log") == "3")
        // Requests run on their loop while up to 64 per loop are in flight (the default).
        #expect(try await Self.waitFor(#""msg":"listening",[^\n]*?"requestsOnEventLoop":"(\d+)""#, in: "\(directory)/out.log") == "192")
        let sandboxPort = try await Self.waitFor(#"embedded CMCC sandbox on http://127\.0\.0\.1:(\d+)"#, in: "\(directory)/err.log")
        #expect(FileManager.default.fileExists(atPath: "\(directory)/keys/cli-rsa.pem"))

        let http = CurlHTTPClient()
        for app in ["300011111111", "300022222222"] {
            let mint = try await http.send(.init(method: .post, url: "http://127.0.0.1:\(sandboxPort)/sandbox/tokens", headers: [("Content-Type", "application/json")],
                                                 body: Array(#"{"appId":"\#(app)","phoneNumber":"13800138000"}"#.utf8)))
            let token = try #require((try JSONSerialization.jsonObject(with: Data(mint.body)) as? [String: Any])?["token"] as? String)
            let exchange = try await http.send(.init(
                method: .post, url: "http://127.0.0.1:\(apiPort)/v1/phone-number",
                headers: [("Authorization", "Bearer \(Self.apiKey)"), ("Content-Type", "application/json")],
                body: Array(#"{"appId":"\#(app)","token":"\#(token)"}"#.utf8)
            ))
            #expect(exchange.status == 200, "\(String(decoding: exchange.body, as: UTF8.self))")
            #expect(String(decoding: exchange.body, as: UTF8.self).contains(#""phoneNumber":"13800138000""#))
        }
        await http.shutdown()

        process.send(SIGTERM)
        #expect(await process.exitStatus() == 0)
    }

    @Test("check-config accepts a good config and lists every problem of a broken one with exit 78")
    func checkConfig() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let good = try await ProcessRunner.passgate(["check-config", "--config", try Self.writeConfig(in: directory)])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("OK"))

        let broken = """
            server: {port: 70000}
            servr: {}
            apps:
              - {appId: "3000 1111", provider: cmcc, signMode: md5, secret: "env:PASSGATE_CLI_TEST_UNSET"}
              - {appId: "300022222222", provider: cucc, signMode: rsa, privateKey: "file:\(directory)/missing.pem"}
            clients:
              - {id: shop, apiKeySHA256: "not-a-hash", apps: ["399999999999"]}
            """
        try broken.write(toFile: "\(directory)/broken.yaml", atomically: true, encoding: .utf8)
        let result = try await ProcessRunner.passgate(["check-config", "--config", "\(directory)/broken.yaml"])
        #expect(result.status == 78)
        for path in ["server.port", "servr", "apps[0].appId", "apps[0].secret", "apps[1].provider", "apps[1].privateKey", "clients[0].apiKeySHA256", "clients[0].apps"] {
            #expect(result.stderr.contains(path), "no problem reported for \(path): \(result.stderr)")
        }
    }

    @Test("serve with a broken config exits 78 before listening")
    func serveRefusesBrokenConfig() async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        try "server: {port: -1}\n".write(toFile: "\(directory)/bad.yaml", atomically: true, encoding: .utf8)
        let result = try await ProcessRunner.passgate(["serve", "--config", "\(directory)/bad.yaml"])
        #expect(result.status == 78 && result.stderr.contains("server.port"))
    }

    @Test("serve with its API, metrics or sandbox port taken exits 69 with a message naming the address and the setting, also logged", arguments: ["server", "metrics", "sandbox"])
    func serveRefusesATakenPort(section: String) async throws {
        let directory = try ProcessRunner.temporaryDirectory()
        let held = try HeldPort()
        var yaml = try String(contentsOfFile: try Self.writeConfig(in: directory), encoding: .utf8)
        let line = switch section {
        case "server": "server: {host: 127.0.0.1, port: 0}"
        case "metrics": "metrics: {port: 0}"
        default: "sandbox: {enabled: true, host: 127.0.0.1, port: 0,"
        }
        yaml = yaml.replacingOccurrences(of: line, with: line.replacingOccurrences(of: "port: 0", with: "port: \(held.port)"))
        try yaml.write(toFile: "\(directory)/taken.yaml", atomically: true, encoding: .utf8)
        let result = try await ProcessRunner.passgate(["serve", "--config", "\(directory)/taken.yaml"])
        let message = "cannot listen on 127.0.0.1:\(held.port) (\(section).host, \(section).port): the address is already in use"
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("error: the \(section == "server" ? "api" : section) listener \(message)"), "\(result.stderr)")
        if section != "sandbox" {
            // The sandbox starts before the service group and its logger; the listeners log the failure too.
            #expect(result.stdout.contains(#""level":"critical""#) && result.stdout.contains(message), "\(result.stdout)")
        }
    }
}
