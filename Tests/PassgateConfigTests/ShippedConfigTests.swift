import Foundation
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import ProviderCMCC
import ProviderJVerification
import PassgateTestSupport
import Testing

@Suite("The shipped configuration files")
struct ShippedConfigTests {
    @Test("config/passgate.yaml loads with zero problems and generates the sandbox key once, then reuses it")
    func defaultConfigLoadsAndKeepsItsSandboxKey() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let keyDirectory = "\(directory)/keys/sandbox"
            let loader = ConfigurationLoader.testing(environment: ["PASSGATE_SANDBOX_KEYDIRECTORY": keyDirectory])
            let path = "\(TestFiles.packageRoot)/\(ConfigurationLoader.defaultPath)"

            let first = try loader.load(path: path)
            #expect(first.sandbox.enabled)
            #expect(first.sandbox.port == 8090)
            #expect(first.sandbox.keyDirectory == keyDirectory)
            #expect(first.server.host == "127.0.0.1" && first.server.port == 8080)
            #expect(String(describing: first.log.level) == "info" && first.log.format == .json)
            #expect(first.state.backend == .memory && first.state.replayKey == nil)
            #expect(first.providers["cmcc"]?.baseURLs == [])
            // The first providers' apps, then one sandbox app per later provider.
            #expect(first.apps.prefix(5).map(\.appId) == ["300011111111", "300022222222", "jg-demo", "sy-demo", "ali-demo"])
            #expect(Set(first.apps.map(\.provider)) == Set(first.registry.ids), "one sandbox app per provider")
            let jverification = try #require(first.app("jg-demo")?.settings as? JVerificationApp)
            #expect(jverification.appKey == "jgdemoappkey0001" && jverification.privateKey?.bits == 2048 && jverification.apiVersion == 1)
            #expect(first.app("300011111111")?.cmcc?.signMode == .md5)
            #expect(first.app("300011111111")?.cmcc?.secret?.count == 32)
            #expect(first.app("300011111111")?.cmcc?.appKey?.count == 16)
            let rsa = try #require(first.app("300022222222")?.cmcc)
            #expect(rsa.signMode == .rsa && rsa.appKey != nil)
            let generated = try #require(rsa.privateKey)
            #expect(generated.bits == 2048)

            let client = try #require(first.clients.first)
            #expect(first.clients.count == 1)
            #expect(client.id == "sandbox-demo")
            #expect(client.apiKeySHA256 == (try Digest.sha256(Array("pg_sandbox_demo_key".utf8))))
            #expect(client.apps == Set(first.apps.map(\.appId)), "the demo client may use every demo app")
            #expect(client.ratePerSecond == 200)

            // Generated as PKCS#8, directory 0700, file 0600.
            let keyFile = "\(keyDirectory)/app-rsa.pem"
            let pem = try String(contentsOfFile: keyFile, encoding: .utf8)
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(try permissions(keyFile) == 0o600)
            #expect(try permissions(keyDirectory) == 0o700)
            let entries = try FileManager.default.contentsOfDirectory(atPath: keyDirectory)
            #expect(entries.sorted() == ["app-rsa.pem", "jg-demo.pem"])  // no temporary files left behind

            let second = try loader.load(path: path)
            let reused = try #require(second.app("300022222222")?.cmcc?.privateKey)
            #expect(try reused.publicKey.der() == generated.publicKey.der())
            #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == pem)
        }
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}
