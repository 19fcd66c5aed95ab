import PassgateCore
import Foundation
import OpenSSLCrypto

/// How a `tokenValidate` (number verification) request protects the phone number and signs.
public enum CMCCVerifyKeying: Sendable, RedactedDescription {
    /// keyType 0: `phoneNum = SHA256(phone + appKey + timestamp)`,
    /// `sign = HMAC-SHA256(appKey, appId + msgId + phoneNum + timestamp + token + version)`, both
    /// uppercase hex. The key is the app's appKey, not its APPSecret.
    case appKey(String)
    /// keyType 1: `phoneNum` is `phone + appKey + timestamp` RSA-encrypted (PKCS#1 v1.5) to the
    /// carrier's platform key, `sign` is MD5withRSA with our key over the keyType 0 sign string.
    /// CMCC leaves the encodings unsettled; we send base64, as the one known integration does.
    case rsa(appKey: String, platformKey: RSAPublicKey, privateKey: RSAPrivateKey)
}

/// A signed `POST /openapi/rs/tokenValidate` request (version 1.0).
public struct CMCCVerifyRequest: Sendable, RedactedDescription {
    public static let path = "/openapi/rs/tokenValidate"
    public static let version = "1.0"

    /// `{"header": {...}, "body": {...}}` in the documented order.
    public let json: JSONStringTree
    /// Our msgId, which the reply header must echo.
    public let msgId: String
    /// The signed string (it holds no secret: the appKey is the HMAC key, not part of it).
    public let signingInput: String
    /// The phone-number digest or ciphertext we sent.
    public let phoneNum: String

    /// The body to POST.
    public var body: [UInt8] { json.bytes }

    public init(
        appId: String, token: String, phoneNumber: String, keying: CMCCVerifyKeying, msgId: String, timestamp: String
    ) throws {
        let version = Self.version
        let keyType: String
        let sign: String
        switch keying {
        case .appKey(let appKey):
            keyType = "0"
            phoneNum = Hex.uppercase(try Digest.sha256(Array((phoneNumber + appKey + timestamp).utf8)))
            signingInput = Self.signingInput(appId: appId, msgId: msgId, phoneNum: phoneNum, timestamp: timestamp, token: token)
            sign = Hex.uppercase(try Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(signingInput.utf8)))
        case .rsa(let appKey, let platformKey, let privateKey):
            keyType = "1"
            phoneNum = Data(try platformKey.encrypt(Array((phoneNumber + appKey + timestamp).utf8))).base64EncodedString()
            signingInput = Self.signingInput(appId: appId, msgId: msgId, phoneNum: phoneNum, timestamp: timestamp, token: token)
            sign = Data(try privateKey.sign(Array(signingInput.utf8), digest: .md5)).base64EncodedString()
        }
        self.msgId = msgId
        json = .object([
            ("header", .object([
                ("version", .string(version)),
                ("msgId", .string(msgId)),
                ("timestamp", .string(timestamp)),
                ("appId", .string(appId)),
            ])),
            ("body", .object([
                ("openType", .string("1")),
                ("requesterType", .string("0")),
                ("message", .string("")),
                ("expandParams", .string("")),
                ("keyType", .string(keyType)),
                ("phoneNum", .string(phoneNum)),
                ("token", .string(token)),
                ("sign", .string(sign)),
            ])),
        ])
    }
}

extension CMCCVerifyRequest {
    /// What `sign` covers in both key types: `appId + msgId + phoneNum + timestamp + token + version`.
    public static func signingInput(appId: String, msgId: String, phoneNum: String, timestamp: String, token: String) -> String {
        appId + msgId + phoneNum + timestamp + token + version
    }
}

extension CMCCVerifyKeying {
    /// The keyType only: the appKey and the private key never print.
    public var redactedFields: [(label: String, value: String)] {
        switch self {
        case .appKey: [("keyType", "0")]
        case .rsa: [("keyType", "1")]
        }
    }
}

extension CMCCVerifyRequest {
    /// The body and the signing input hold the token, and `phoneNum` is derived from the number:
    /// only the msgId prints.
    public var redactedFields: [(label: String, value: String)] { [("msgId", msgId)] }
}
