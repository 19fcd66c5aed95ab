import PassgateCore
import ProviderCMCC
import Foundation
import OpenSSLCrypto
import PassgateConfig
import Testing
import PassgateTestSupport

@Suite("a loaded CMCC app gives ProviderCMCC the right credentials")
struct SigningTests {
    @Test("the shipped MD5 app signs the docs/cmcc.md login and verification vectors")
    func md5AppSignsProtocolVectors() throws {
        let configuration = try TestFiles.withTemporaryDirectory { directory in
            let yaml = try TestFiles.shipped(ConfigurationLoader.defaultPath)
            try TestRSAKeys.seedSandboxKeys(referencedIn: yaml, in: directory)
            return try ConfigurationLoader.testing(environment: ["PASSGATE_SANDBOX_KEYDIRECTORY": directory]).load(yaml: yaml, baseDirectory: directory)
        }
        let app = try #require(configuration.app("300011111111")?.cmcc)
        #expect(app.appId == "300011111111")
        let login = try CMCCLoginRequest(
            appId: app.appId, token: "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ", signing: app.login,
            msgid: "bed1dc7f6cd645b9be9006ae08040c93", systemtime: "20190226111842617"
        )
        #expect(login.json["sign"] == "D377B8E67869D5CEF6ECC55A59CA55FD")
        #expect(login.json["encryptionalgorithm"] == "")

        let keying = try #require(app.verify)
        let verify = try CMCCVerifyRequest(
            appId: app.appId, token: "STsid0000001515028196605yc1oYNTuPlTlLT10AR3ywr2WApEq14JH", phoneNumber: "13800138000",
            keying: keying, msgId: "8ADFF305C7FCB3E1B1AECC130792FBD0", timestamp: "20180104090953788"
        )
        #expect(verify.phoneNum == "91481A516B564965D2858954EB17B4351BB6BF649E6D1A77F2ADE4CB4CBEF4E6")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(verify.body)) as? [String: [String: String]])
        #expect(body["body"]?["sign"] == "48E87A724F2E3406B3B0DC7DD99621C8CC2574045A7DB90B96B4939632531E1B")
    }

    @Test("an RSA app signs appid+token with its configured private key")
    func rsaAppSignsWithItsKey() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let key = TestRSAKeys.primary
            try TestFiles.write(TestRSAKeys.primaryPEM, to: "\(directory)/app.pem")
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps: [{appId: "300022222222", signMode: rsa, privateKey: "file:app.pem"}]
                """
            let app = try #require(try ConfigurationLoader.testing(environment: [:]).load(yaml: yaml, baseDirectory: directory).apps.first?.cmcc)
            #expect(app.verify == nil)
            guard case .rsa = app.login else {
                Issue.record("expected RSA signing")
                return
            }
            let request = try CMCCLoginRequest(appId: app.appId, token: "STsidTOKEN", signing: app.login, msgid: "m1", systemtime: "20190226111842617")
            #expect(request.json["encryptionalgorithm"] == "RSA")
            let sign = try #require(request.json["sign"])
            let signature = try #require(Hex.decode(sign))
            #expect(try key.publicKey.verify(signature, for: Array("300022222222STsidTOKEN".utf8)))
        }
    }

    @Test("an app that cannot sign cannot be made: RSA without a key, MD5 without a secret, an empty appKey")
    func appThatCannotSignIsRefused() throws {
        #expect {
            try CMCCApp(appId: "300022222222", signMode: .rsa, appKey: "k")
        } throws: { error in
            "\(error)" == "app 300022222222: signMode rsa needs a privateKey"
        }
        #expect(throws: CMCCApp.InvalidCredentials.self) { try CMCCApp(appId: "300011111111", signMode: .md5) }
        #expect(throws: CMCCApp.InvalidCredentials.self) { try CMCCApp(appId: "300011111111", signMode: .md5, secret: "") }
        #expect(throws: CMCCApp.InvalidCredentials.self) { try CMCCApp(appId: "300011111111", signMode: .md5, secret: "s", appKey: "") }
        let app = try CMCCApp(appId: "300011111111", signMode: .md5, secret: "s")
        #expect(app.verify == nil)
    }

    @Test("a configuration whose RSA key does not load is refused at load time, naming the key")
    func unloadableKeyRefusedAtLoad() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.write("not a key", to: "\(directory)/app.pem")
            let yaml = """
                providers: {cmcc: {baseURLs: ["https://www.cmpassport.com"]}}
                apps: [{appId: "300022222222", provider: cmcc, signMode: rsa, privateKey: "file:\(directory)/app.pem"}]
                clients: [{id: c, apiKeySHA256: "\(String(repeating: "ab", count: 32))", apps: ["300022222222"]}]
                """
            #expect {
                try ConfigurationLoader.testing(environment: [:]).load(yaml: yaml, baseDirectory: directory)
            } throws: { error in
                (error as? ConfigurationError)?.problems.contains { $0.path == "apps[0].privateKey" } == true
            }
        }
    }
}
