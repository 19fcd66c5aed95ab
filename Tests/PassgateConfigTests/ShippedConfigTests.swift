import Foundation
import OpenSSLCrypto
import PassgateConfig
import Testing

@Suite("The shipped configuration files")
struct ShippedConfigTests {
    @Test("config/passgate.yaml loads with zero problems and generates the sandbox key once, then reuses it")
    func defaultConfigLoadsAndKeepsItsSandboxKey() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let keyDirectory = "\(directory)/keys/sandbox"
            let loader = ConfigurationLoader(environment: ["PASSGATE_SANDBOX_KEYDIRECTORY": keyDirectory])
            let path = "\(TestFiles.packageRoot)/\(ConfigurationLoader.defaultPath)"

            let first = try loader.load(path: path)
            #expect(first.sandbox.enabled)
            #expect(first.sandbox.port == 8090)
            #expect(first.sandbox.keyDirectory == keyDirectory)
            #expect(first.server.host == "127.0.0.1" && first.server.port == 8080)
            #expect(String(describing: first.log.level) == "info" && first.log.format == .json)
            #expect(first.state.backend == .memory && first.state.replayKey == nil)
            #expect(first.providers["cmcc"]?.baseURLs == [])
            #expect(first.apps.map(\.appId) == ["300011111111", "300022222222"])
            #expect(first.app("300011111111")?.signMode == .md5)
            #expect(first.app("300011111111")?.secret?.count == 32)
            #expect(first.app("300011111111")?.appKey?.count == 16)
            let rsa = try #require(first.app("300022222222"))
            #expect(rsa.signMode == .rsa && rsa.appKey != nil)
            let generated = try #require(rsa.privateKey)
            #expect(generated.bits == 2048)

            let client = try #require(first.clients.first)
            #expect(first.clients.count == 1)
            #expect(client.id == "sandbox-demo")
            #expect(client.apiKeySHA256 == (try Digest.sha256(Array("pg_sandbox_demo_key".utf8))))
            #expect(client.apps == ["300011111111", "300022222222"])
            #expect(client.ratePerSecond == 200)

            // Generated as PKCS#8, directory 0700, file 0600.
            let keyFile = "\(keyDirectory)/app-rsa.pem"
            let pem = try String(contentsOfFile: keyFile, encoding: .utf8)
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(try permissions(keyFile) == 0o600)
            #expect(try permissions(keyDirectory) == 0o700)
            let entries = try FileManager.default.contentsOfDirectory(atPath: keyDirectory)
            #expect(entries == ["app-rsa.pem"])  // no temporary files left behind

            let second = try loader.load(path: path)
            let reused = try #require(second.app("300022222222")?.privateKey)
            #expect(try reused.publicKey.der() == generated.publicKey.der())
            #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == pem)
        }
    }

    @Test("config/production.example.yaml loads cleanly once the env vars and files it references exist")
    func productionExampleLoadsWithItsSecrets() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let yaml = try productionExample(in: directory)
            let key = try RSAPrivateKey.generate(bits: 2048)
            try TestFiles.write(try key.pkcs8PEM(), to: "\(directory)/secrets/cmcc-300022222222.pem")
            try TestFiles.write("FEDCBA9876543210\n", to: "\(directory)/secrets/cmcc-300022222222.appkey")
            try TestFiles.write(TestFiles.certificatePEM, to: "\(directory)/ca.pem")
            let environment = [
                "CMCC_APP_SECRET": "0123456789ABCDEF0123456789ABCDEF",
                "CMCC_APP_KEY": "ABCDEF0123456789",
                "PASSGATE_REPLAY_KEY": String(repeating: "ab", count: 32),
            ]

            let configuration = try ConfigurationLoader(environment: environment).load(yaml: yaml, baseDirectory: directory)
            #expect(!configuration.sandbox.enabled)
            #expect(configuration.server.host == "0.0.0.0" && configuration.server.drainSeconds == 10)
            #expect(configuration.state.replayKey == [UInt8](repeating: 0xAB, count: 32))
            let cmcc = try #require(configuration.providers["cmcc"])
            #expect(cmcc.baseURLs == ["https://www.cmpassport.com", "https://onekey2.cmpassport.com"])
            #expect(cmcc.caFile == "\(directory)/ca.pem")
            #expect(cmcc.proxy == "http://egress-proxy:3128")
            #expect(configuration.app("300011111111")?.secret == "0123456789ABCDEF0123456789ABCDEF")
            #expect(configuration.app("300022222222")?.appKey == "FEDCBA9876543210")
            #expect(try configuration.app("300022222222")?.privateKey?.publicKey.der() == key.publicKey.der())
            #expect(configuration.clients.map(\.id) == ["shop-backend", "risk-service"])
        }
    }

    @Test("config/production.example.yaml without its env vars and files lists exactly the missing ones")
    func productionExampleListsWhatIsMissing() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let yaml = try productionExample(in: directory)
            let found = problems(yaml, baseDirectory: directory)
            #expect(found.map(\.path) == [
                "state.replayKey", "providers.cmcc.caFile",
                "apps[0].secret", "apps[0].appKey", "apps[1].privateKey", "apps[1].appKey",
            ])
            #expect(found[0].message.contains("PASSGATE_REPLAY_KEY"))
            #expect(found[2].message.contains("CMCC_APP_SECRET"))
            #expect(found[3].message.contains("CMCC_APP_KEY"))
            #expect(found[4].message.contains("\(directory)/secrets/cmcc-300022222222.pem"))
            #expect(found[5].message.contains("\(directory)/secrets/cmcc-300022222222.appkey"))
        }
    }

    /// The production example with its absolute paths moved into `directory`.
    private func productionExample(in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(directory)/secrets", withIntermediateDirectories: true)
        let yaml = try TestFiles.shipped("config/production.example.yaml")
        #expect(yaml.contains("file:/run/secrets/") && yaml.contains("caFile: /etc/ssl/certs/ca-certificates.crt"))
        return yaml.replacingOccurrences(of: "file:/run/secrets/", with: "file:secrets/")
            .replacingOccurrences(of: "caFile: /etc/ssl/certs/ca-certificates.crt", with: "caFile: ca.pem")
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}
