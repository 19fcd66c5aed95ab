import PassgateCore
import ProviderCMCC
import Foundation
import OpenSSLCrypto
import Testing

@Suite("CMCC request building")
struct CMCCRequestTests {
    @Test("MD5-mode login request matches the protocol vector and sends every value as a string")
    func md5LoginVector() throws {
        let request = try CMCCLoginRequest(
            appId: "300011111111", token: "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ",
            signing: .md5(secret: "0123456789ABCDEF0123456789ABCDEF"),
            msgid: "bed1dc7f6cd645b9be9006ae08040c93", systemtime: "20190226111842617"
        )
        let object = try Fixtures.object(request.body)
        #expect(object["sign"] as? String == "D377B8E67869D5CEF6ECC55A59CA55FD")
        #expect(object["version"] as? String == "2.0")
        #expect(object["strictcheck"] as? String == "0")
        #expect(object["encryptionalgorithm"] as? String == "")
        #expect(object["expandparams"] as? String == "")
        #expect(object.count == 9)
        #expect(object.values.allSatisfy { $0 is String })
        #expect(request.msgid == "bed1dc7f6cd645b9be9006ae08040c93")
    }

    @Test("the redacted signing string never contains the secret but shows its shape")
    func redactsSecret() throws {
        let secret = "0123456789ABCDEF0123456789ABCDEF"
        let request = try CMCCLoginRequest(appId: "300011111111", token: "tok", signing: .md5(secret: secret), msgid: "m1", systemtime: "20190226111842617")
        #expect(!request.redactedSigningInput.contains(secret))
        #expect(!request.redactedSigningInput.contains("456789ABCDEF"))
        #expect(request.redactedSigningInput == "300011111111" + "2.0" + "m1" + "20190226111842617" + "0" + "tok" + "<secret: 32 chars, 01…EF>")
    }

    @Test("RSA-mode login request signs appid+token with SHA256withRSA, uppercase hex, and says RSA")
    func rsaLogin() throws {
        let request = try CMCCLoginRequest(
            appId: "300022222222", token: "STsidTOKEN", signing: .rsa(privateKey: Fixtures.appKey), msgid: "m2", systemtime: "20190226111842617"
        )
        let object = try Fixtures.object(request.body)
        #expect(object["encryptionalgorithm"] as? String == "RSA")
        let sign = try #require(object["sign"] as? String)
        #expect(sign == sign.uppercased() && sign.count == 512)
        let signature = try #require(Hex.decode(sign))
        #expect(try Fixtures.appKey.publicKey.verify(signature, for: Array("300022222222STsidTOKEN".utf8), digest: .sha256))
        #expect(try !Fixtures.appKey.publicKey.verify(signature, for: Array("300022222222STsidTOKEn".utf8), digest: .sha256))
        #expect(request.redactedSigningInput == "300022222222STsidTOKEN")
    }

    @Test("strictcheck 1 is signed into the MD5 string")
    func strictCheck() throws {
        let request = try CMCCLoginRequest(appId: "1", token: "t", signing: .md5(secret: "s"), msgid: "m", systemtime: "20190226111842617", strictCheck: true)
        let object = try Fixtures.object(request.body)
        #expect(object["strictcheck"] as? String == "1")
        #expect(object["sign"] as? String == Hex.uppercase(try Digest.md5(Array("12.0m201902261118426171ts".utf8))))
    }

    @Test("tokenValidate keyType 0 matches the protocol vector")
    func verifyVector() throws {
        let request = try CMCCVerifyRequest(
            appId: "300011111111", token: "STsid0000001515028196605yc1oYNTuPlTlLT10AR3ywr2WApEq14JH", phoneNumber: "13800138000",
            keying: .appKey("ABCDEF0123456789"), msgId: "8ADFF305C7FCB3E1B1AECC130792FBD0", timestamp: "20180104090953788"
        )
        let object = try Fixtures.object(request.body)
        let header = try #require(object["header"] as? [String: Any])
        let body = try #require(object["body"] as? [String: Any])
        #expect(body["phoneNum"] as? String == "91481A516B564965D2858954EB17B4351BB6BF649E6D1A77F2ADE4CB4CBEF4E6")
        #expect(body["sign"] as? String == "48E87A724F2E3406B3B0DC7DD99621C8CC2574045A7DB90B96B4939632531E1B")
        #expect(body["keyType"] as? String == "0")
        #expect(header["version"] as? String == "1.0")
        #expect(header["timestamp"] as? String == "20180104090953788")
        #expect(header.values.allSatisfy { $0 is String } && body.values.allSatisfy { $0 is String })
    }

    @Test("tokenValidate keyType 1 encrypts phone+appKey+timestamp to the platform key and signs MD5withRSA")
    func verifyKeyTypeOne() throws {
        let request = try CMCCVerifyRequest(
            appId: "300011111111", token: "tok", phoneNumber: "13800138000",
            keying: .rsa(appKey: "ABCDEF0123456789", platformKey: Fixtures.platformKey.publicKey, privateKey: Fixtures.appKey),
            msgId: "8ADFF305C7FCB3E1B1AECC130792FBD0", timestamp: "20180104090953788"
        )
        let body = try #require(try Fixtures.object(request.body)["body"] as? [String: Any])
        #expect(body["keyType"] as? String == "1")
        let phoneNum = try #require(body["phoneNum"] as? String)
        let ciphertext = try #require(Data(base64Encoded: phoneNum))
        let plaintext = try Fixtures.platformKey.decrypt([UInt8](ciphertext))
        #expect(String(decoding: plaintext, as: UTF8.self) == "13800138000ABCDEF012345678920180104090953788")
        let sign = try #require(body["sign"] as? String)
        let signature = try #require(Data(base64Encoded: sign))
        let signed = "3000111111118ADFF305C7FCB3E1B1AECC130792FBD0\(phoneNum)20180104090953788tok1.0"
        #expect(try Fixtures.appKey.publicKey.verify([UInt8](signature), for: Array(signed.utf8), digest: .md5))
    }

    @Test("JSON strings are escaped, so a hostile token cannot inject fields")
    func escapesStrings() throws {
        let token = "a\"b\\c\n\u{01}\",\"sign\":\"X"
        let request = try CMCCLoginRequest(appId: "1", token: token, signing: .md5(secret: "s"), msgid: "m", systemtime: "20190226111842617")
        let object = try Fixtures.object(request.body)
        #expect(object["token"] as? String == token)
        #expect(object.count == 9)
    }
}
