import OpenSSLCrypto
import Testing

/// The synthetic vectors of docs/cmcc.md ("Signing"), computed with our
/// primitives exactly as the carrier formulas say (plain concatenation, fixed order).
@Suite("CMCC protocol vectors")
struct CarrierVectorTests {
    enum LoginTokenValidate {
        static let appid = "300011111111"
        static let version = "2.0"
        static let msgid = "bed1dc7f6cd645b9be9006ae08040c93"
        static let systemtime = "20190226111842617"
        static let strictcheck = "0"
        static let token = "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ"
        static let secret = "0123456789ABCDEF0123456789ABCDEF"
        static let sign = "D377B8E67869D5CEF6ECC55A59CA55FD"
    }

    enum TokenValidate {
        static let appKey = "ABCDEF0123456789"
        static let phone = "13800138000"
        static let timestamp = "20180104090953788"
        static let appId = "300011111111"
        static let msgId = "8ADFF305C7FCB3E1B1AECC130792FBD0"
        static let token = "STsid0000001515028196605yc1oYNTuPlTlLT10AR3ywr2WApEq14JH"
        static let version = "1.0"
        static let phoneNum = "91481A516B564965D2858954EB17B4351BB6BF649E6D1A77F2ADE4CB4CBEF4E6"
        static let sign = "48E87A724F2E3406B3B0DC7DD99621C8CC2574045A7DB90B96B4939632531E1B"
    }

    @Test("loginTokenValidate MD5 sign: MD5(appid+version+msgid+systemtime+strictcheck+token+secret), uppercase")
    func loginTokenValidateMD5Sign() throws {
        typealias V = LoginTokenValidate
        let input = V.appid + V.version + V.msgid + V.systemtime + V.strictcheck + V.token + V.secret
        let sign = Hex.uppercase(try Digest.md5(Array(input.utf8)))
        #expect(sign == V.sign)
        #expect(sign.count == 32)
    }

    @Test("loginTokenValidate MD5 sign depends on the field order")
    func loginTokenValidateOrderMatters() throws {
        typealias V = LoginTokenValidate
        // Alphabetical order (appid, msgid, secret, strictcheck, systemtime, token, version) is a classic 103101.
        let alphabetical = V.appid + V.msgid + V.secret + V.strictcheck + V.systemtime + V.token + V.version
        #expect(Hex.uppercase(try Digest.md5(Array(alphabetical.utf8))) != V.sign)
    }

    @Test("tokenValidate phoneNum: SHA256(phone+appKey+timestamp), 64 uppercase hex")
    func tokenValidatePhoneNum() throws {
        typealias V = TokenValidate
        let phoneNum = Hex.uppercase(try Digest.sha256(Array((V.phone + V.appKey + V.timestamp).utf8)))
        #expect(phoneNum == V.phoneNum)
        #expect(phoneNum.count == 64)
    }

    @Test("tokenValidate sign: HMAC-SHA256(key appKey, appId+msgId+phoneNum+timestamp+token+version), uppercase")
    func tokenValidateSign() throws {
        typealias V = TokenValidate
        let phoneNum = Hex.uppercase(try Digest.sha256(Array((V.phone + V.appKey + V.timestamp).utf8)))
        let message = V.appId + V.msgId + phoneNum + V.timestamp + V.token + V.version
        let sign = Hex.uppercase(try Digest.hmacSHA256(key: Array(V.appKey.utf8), data: Array(message.utf8)))
        #expect(sign == V.sign)
    }

    @Test("tokenValidate sign with a lowercase phoneNum inside does not match (case is part of the input)")
    func tokenValidateSignIsCaseSensitive() throws {
        typealias V = TokenValidate
        let message = V.appId + V.msgId + V.phoneNum.lowercased() + V.timestamp + V.token + V.version
        let sign = Hex.uppercase(try Digest.hmacSHA256(key: Array(V.appKey.utf8), data: Array(message.utf8)))
        #expect(sign != V.sign)
    }
}
