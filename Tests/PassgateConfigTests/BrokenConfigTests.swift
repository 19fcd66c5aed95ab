import Foundation
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

@Suite("A broken configuration reports every problem at once")
struct BrokenConfigTests {
    @Test("twelve distinct mistakes come back as twelve problems, each with its key path and line, in file order")
    func reportsEveryMistake() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(directory)/ec.pem"])
            let yaml = """
                servr:
                  port: 8080
                server:
                  port: 99999
                providers:
                  cmcc:
                    baseURLs: ["http://carrier.example.com"]
                  cucc:
                    baseURLs: ["https://example.com"]
                apps:
                  - appId: "300011111111"
                    signMode: md5
                    secret: "literal-secret-value"
                    appKey: "env:MISSING_APP_KEY"
                  - appId: "300011111111"
                    signMode: rsa
                    privateKey: "file:/nonexistent/passgate/key.pem"
                  - appId: "300033333333"
                    signMode: rsa
                    privateKey: "file:ec.pem"
                  - appId: "300044444444"
                    signMode: md5
                    secret: "env:PADDED_SECRET"
                clients:
                  - id: shop-backend
                    apiKeySHA256: "pg_live_0123456789abcdef"
                    apps: ["300011111111", "300099999999"]
                """
            let found = problems(yaml, environment: ["PADDED_SECRET": "0123456789ABCDEF0123456789ABCDEF "], baseDirectory: directory)
            let expected: [(path: String, fragment: String)] = [
                ("servr", "unknown key 'servr' at top level; did you mean 'server'?"),
                ("server.port", "server.port must be an integer 0-65535 (0 picks a free port), got '99999'"),
                ("providers.cmcc.baseURLs[0]", "must use https"),
                ("providers.cucc", "unknown provider 'cucc'; supported: \(ProviderRegistry.testing.ids.joined(separator: ", "))"),
                ("apps[0].secret", "apps[0].secret is a literal; use env:NAME or file:PATH outside the sandbox"),
                ("apps[0].appKey", "environment variable MISSING_APP_KEY is not set"),
                ("apps[1].appId", "300011111111 is configured twice (also apps[0].appId)"),
                ("apps[1].privateKey", "cannot read '/nonexistent/passgate/key.pem'"),
                ("apps[2].privateKey", "is a EC key; an RSA key is required"),
                ("apps[3].secret", "apps[3].secret (env:PADDED_SECRET) has leading or trailing whitespace"),
                ("clients[0].apiKeySHA256", "must be the SHA-256 of the key, e.g. printf %s KEY | sha256sum"),
                ("clients[0].apps[1]", "client shop-backend is granted unknown app 300099999999"),
            ]
            #expect(found.map(\.path) == expected.map(\.path))
            #expect(found.map(\.line) == [1, 4, 7, 8, 13, 14, 15, 17, 20, 23, 26, 27])
            for (problem, expectation) in zip(found, expected) {
                #expect(problem.message.contains(expectation.fragment), "\(problem.path): \(problem.message)")
            }
            let description = ConfigurationError(problems: found).description
            #expect(description.hasPrefix("12 problems in the configuration:\n  - line 1: unknown key 'servr'"))
        }
    }

    @Test("a YAML syntax error is one problem with line and column, and does not quote the line")
    func syntaxErrorHasPosition() {
        let found = problems("server:\n  port: 8080\napps:\n  - secret: \"Zq9-unterminated\n")
        #expect(found.count == 1)
        #expect(found.first?.path == "")
        #expect(found.first?.message.contains("not valid YAML") == true)
        #expect(found.first?.message.contains("line") == true)
        #expect(found.first?.message.contains("Zq9") == false)
    }

    @Test("a key given twice in one mapping is named")
    func duplicateKeys() {
        let found = problems("server:\n  port: 8080\n  port: 8081\n")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("'port' appears twice") == true)
    }

    @Test("a missing config file is one problem that names the path")
    func missingFile() {
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.testing(environment: [:]).load(path: "/nonexistent/passgate.yaml") }
        do {
            _ = try ConfigurationLoader.testing(environment: [:]).load(path: "/nonexistent/passgate.yaml")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.message.contains("/nonexistent/passgate.yaml") == true)
        }
    }
}
