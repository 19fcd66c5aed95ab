import Foundation
import OpenSSLCrypto
import PassgateConfig
import ProviderCMCC
import Testing
import PassgateTestSupport

@Suite("Secret references")
struct SecretResolutionTests {
    @Test("no problem message ever contains a secret's value")
    func messagesNeverLeakSecrets() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.write("Zq9-FILE-SECRET \n", to: "\(directory)/padded.secret")
            try TestFiles.write("Zq9-NOT-A-KEY\n", to: "\(directory)/garbage.pem")
            let environment = [
                "PADDED": " Zq9-ENV-SECRET",
                "SHORT_REPLAY": "Zq9-REPLAY",
                "PASSGATE_STATE_REPLAYKEY": "Zq9-OVERRIDE-REPLAY",
            ]
            let production = """
                state: {replayKey: "env:SHORT_REPLAY"}
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps:
                  - {appId: "300011111111", signMode: md5, secret: "Zq9-LITERAL", appKey: "env:PADDED"}
                  - {appId: "300022222222", signMode: rsa, privateKey: "file:garbage.pem", appKey: "file:padded.secret"}
                  - {appId: "300033333333", signMode: rsa, privateKey: "Zq9-LITERAL-PEM", secret: "sandbox:demo"}
                clients:
                  - {id: a, apiKeySHA256: "Zq9-RAW-API-KEY", apps: ["300011111111"]}
                  - {id: b, apiKeySHA256: "Zq9abc", apps: ["300011111111"]}
                """
            let sandboxed = """
                state: {replayKey: "Zq9-LITERAL-REPLAY"}
                apps:
                  - {appId: "300011111111", signMode: md5, secret: " Zq9-LITERAL-PADDED"}
                  - {appId: "300022222222", signMode: rsa, privateKey: "Zq9-LITERAL-PEM"}
                sandbox: {enabled: true, keyDirectory: keys}
                """
            var all: [ConfigurationProblem] = []
            for yaml in [production, sandboxed] {
                for env in [environment, environment.filter { $0.key != "PASSGATE_STATE_REPLAYKEY" }] {
                    all += problems(yaml, environment: env, baseDirectory: directory)
                }
            }
            #expect(all.count >= 20)
            for problem in all {
                #expect(!problem.message.contains("Zq9"), "\(problem.path): \(problem.message)")
            }
            #expect(!ConfigurationError(problems: all).description.contains("Zq9"))
        }
    }

    @Test("file: secrets drop the trailing newline, relative to the base directory")
    func fileSecretsTrimNewline() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: "\(directory)/run", withIntermediateDirectories: true)
            try TestFiles.write("0123456789ABCDEF0123456789ABCDEF\n", to: "\(directory)/run/app.secret")
            try TestFiles.write("ABCDEF0123456789\r\n", to: "\(directory)/run/app.key")
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps:
                  - {appId: "300011111111", signMode: md5, secret: "file:run/app.secret", appKey: "file:./run/../run/app.key"}
                """
            let configuration = try ConfigurationLoader.testing(environment: [:]).load(yaml: yaml, baseDirectory: directory)
            #expect(configuration.apps.first?.cmcc?.secret == "0123456789ABCDEF0123456789ABCDEF")
            #expect(configuration.apps.first?.cmcc?.appKey == "ABCDEF0123456789")
        }
    }

    @Test("load(path:) resolves relative paths against the working directory, not the config file's directory")
    func relativePathsFollowWorkingDirectory() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: "\(directory)/conf", withIntermediateDirectories: true)
            try TestFiles.write("0123456789ABCDEF0123456789ABCDEF\n", to: "\(directory)/app.secret")
            try TestFiles.write("WRONG-ONE-NEXT-TO-THE-CONFIG\n", to: "\(directory)/conf/app.secret")
            let relative = TestFiles.relativeToWorkingDirectory("\(directory)/app.secret")
            #expect(!relative.hasPrefix("/"))
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps:
                  - {appId: "300011111111", signMode: md5, secret: "file:\(relative)"}
                """
            try TestFiles.write(yaml, to: "\(directory)/conf/passgate.yaml")
            let configuration = try ConfigurationLoader.testing(environment: [:]).load(path: "\(directory)/conf/passgate.yaml")
            #expect(configuration.apps.first?.cmcc?.secret == "0123456789ABCDEF0123456789ABCDEF")
        }
    }

    @Test("a secret with surrounding whitespace is a problem, wherever it comes from")
    func whitespaceAroundSecrets() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.write("  0123456789ABCDEF0123456789ABCDEF\n", to: "\(directory)/lead.secret")
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps:
                  - {appId: "300011111111", signMode: md5, secret: "env:TABBED", appKey: "file:lead.secret"}
                """
            let found = problems(yaml, environment: ["TABBED": "0123456789ABCDEF\t"], baseDirectory: directory)
            #expect(found.map(\.path) == ["apps[0].secret", "apps[0].appKey"])
            #expect(found.first?.message.contains("103101") == true)
        }
    }

    @Test("state.replayKey: 64 hex characters or base64 of at least 32 bytes; shorter is a problem; absent is nil")
    func replayKeyForms() throws {
        let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
        let base64 = Data((0..<48).map { UInt8($0) }).base64EncodedString()
        let short = Data((0..<16).map { UInt8($0) }).base64EncodedString()
        func load(_ key: String) throws -> [UInt8]? {
            var environment = Minimal.environment
            environment["REPLAY"] = key
            return try ConfigurationLoader.testing(environment: environment).load(yaml: Minimal.yaml(state: "replayKey: \"env:REPLAY\""), baseDirectory: "/").state.replayKey
        }
        #expect(try load(hex) == Array(0..<32))
        #expect(try load(hex.uppercased()) == Array(0..<32))
        #expect(try load(base64) == Array(0..<48))
        #expect(try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/").state.replayKey == nil)

        for bad in [short, String(hex.dropLast(2)), "not a key at all"] {
            var environment = Minimal.environment
            environment["REPLAY"] = bad
            let found = problems(Minimal.yaml(state: "replayKey: \"env:REPLAY\""), environment: environment)
            #expect(found.map(\.path) == ["state.replayKey"])
            #expect(found.first?.message.contains("openssl rand -hex 32") == true || found.first?.message.contains("whitespace") == true)
        }
    }

    @Test("state.redisPassword is a secret (never a literal outside the sandbox); redisUsername needs it; empty is a problem")
    func redisCredentials() throws {
        var environment = Minimal.environment
        environment["REDIS_PASSWORD"] = "r3dis-pass"
        let loader = ConfigurationLoader.testing(environment: environment)
        let state = try loader.load(yaml: Minimal.yaml(state: "redisPassword: \"env:REDIS_PASSWORD\", redisUsername: passgate"), baseDirectory: "/").state
        #expect(state.redisPassword == "r3dis-pass" && state.redisUsername == "passgate")
        let plain = try loader.load(yaml: Minimal.yaml(), baseDirectory: "/").state
        #expect(plain.redisPassword == nil && plain.redisUsername == nil)

        let literal = problems(Minimal.yaml(state: "redisPassword: r3dis-pass"), environment: environment)
        #expect(literal.map(\.path) == ["state.redisPassword"], "\(literal.map(\.message))")
        #expect(literal.allSatisfy { !$0.message.contains("r3dis-pass") })
        environment["EMPTY"] = ""
        #expect(problems(Minimal.yaml(state: "redisPassword: \"env:EMPTY\""), environment: environment).map(\.path).contains("state.redisPassword"))
        let orphan = problems(Minimal.yaml(state: "redisUsername: passgate"), environment: environment)
        #expect(orphan.map(\.path) == ["state.redisUsername"])
        #expect(orphan.first?.message.contains("state.redisPassword") == true)
    }

    @Test("sandbox: references are only for privateKey and only with the sandbox enabled")
    func sandboxReferencesAreRestricted() {
        let outside = """
            providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
            apps:
              - {appId: "300022222222", signMode: rsa, privateKey: "sandbox:app-rsa"}
            """
        #expect(problems(outside).map(\.message) == ["apps[0].privateKey is sandbox:app-rsa, which needs sandbox.enabled: true; outside the sandbox use file:PATH"])
        let misuse = """
            apps:
              - {appId: "300011111111", signMode: md5, secret: "sandbox:app-rsa"}
              - {appId: "300022222222", signMode: rsa, privateKey: "sandbox:../escape"}
            sandbox: {enabled: true}
            """
        #expect(problems(misuse).map(\.path) == ["apps[0].secret", "apps[1].privateKey"])
    }

    @Test("two apps naming the same sandbox key share one generated key")
    func sharedSandboxKey() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let yaml = """
                apps:
                  - {appId: "300022222222", signMode: rsa, privateKey: "sandbox:shared"}
                  - {appId: "300033333333", signMode: rsa, privateKey: "sandbox:shared"}
                sandbox: {enabled: true, keyDirectory: "state/keys"}
                """
            let configuration = try ConfigurationLoader.testing(environment: [:]).load(yaml: yaml, baseDirectory: directory)
            #expect(configuration.sandbox.keyDirectory == "\(directory)/state/keys")
            let keys = try configuration.apps.map { try #require($0.cmcc?.privateKey).publicKey.der() }
            #expect(keys.count == 2 && keys[0] == keys[1])
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/state/keys") == ["shared.pem"])
        }
    }

    @Test("a corrupt sandbox key file is reported with what to do")
    func corruptSandboxKey() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.write("-----BEGIN PRIVATE KEY-----\ntruncated", to: "\(directory)/app-rsa.pem")
            let yaml = """
                apps: [{appId: "300022222222", signMode: rsa, privateKey: "sandbox:app-rsa"}]
                sandbox: {enabled: true, keyDirectory: "."}
                """
            let found = problems(yaml, baseDirectory: directory)
            #expect(found.map(\.path) == ["apps[0].privateKey"])
            #expect(found.first?.message.contains("delete it and a new one is generated") == true)
        }
    }

    @Test("RSA keys given as PKCS#1 PEM or bare base64 DER load too")
    func privateKeyFormats() throws {
        try TestFiles.withTemporaryDirectory { directory in
            // openssl writes the shared key as PKCS#1 (generating one here would cost ~0.4 s of CPU).
            let pkcs8 = TestRSAKeys.primaryPEM
            try TestFiles.write(pkcs8, to: "\(directory)/pkcs8.pem")
            try TestFiles.openssl(["rsa", "-in", "\(directory)/pkcs8.pem", "-traditional", "-out", "\(directory)/pkcs1.pem"])
            #expect(try String(contentsOfFile: "\(directory)/pkcs1.pem", encoding: .utf8).hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
            let bareBase64 = pkcs8.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps:
                  - {appId: "300022222222", signMode: rsa, privateKey: "file:pkcs1.pem"}
                  - {appId: "300033333333", signMode: rsa, privateKey: "env:BARE_KEY"}
                """
            let configuration = try ConfigurationLoader.testing(environment: ["BARE_KEY": bareBase64]).load(yaml: yaml, baseDirectory: directory)
            #expect(configuration.apps.compactMap(\.cmcc?.privateKey).map(\.bits) == [2048, 2048])
        }
    }
}
