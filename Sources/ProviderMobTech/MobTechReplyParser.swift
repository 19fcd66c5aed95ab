import Foundation
import OpenSSLCrypto
import PassgateCore

/// What a MobTech reply said.
public struct MobTechReply: Sendable, Equatable {
    /// `status`, as digits: 200, or one of MobTech's 7-digit codes.
    public let code: String
    /// `error`, redacted (`Redaction`).
    public let message: String?
    /// `seqid`, MobTech's id of the call.
    public let seqid: String?
    /// `res`: base64 of the DES-encrypted answer (the number inside).
    public let res: String?
    public let httpStatus: Int
}

/// Parses MobTech replies. Which HTTP status its refusals carry is not documented, so the body is
/// read whatever the status when it is a protocol answer (it has a `status`).
public enum MobTechReplyParser {
    public static func parse(status: Int, contentType: String?, body: [UInt8]) throws(PassgateError) -> MobTechReply {
        let object = try ProviderReply.jsonObject(status: status, contentType: contentType, body: body) { $0["status"] != nil }
        let code = try ProviderReply.digitCode(object["status"], field: "status", provider: "MobTech", usual: "200 or 7 digits", maxDigits: 7)
        // A 7-digit code is MobTech's 4xxxxxx or 5xxxxxx, which no mainland number starts like.
        if code.utf8.count == 7, code.utf8.first != UInt8(ascii: "4"), code.utf8.first != UInt8(ascii: "5") {
            throw ProviderReply.badReply(.malformedField("status", detail: "is not a MobTech code (7 digits not starting with 4 or 5)"))
        }
        return MobTechReply(
            code: code, message: ProviderReply.string(object["error"]).map(Redaction.redact), seqid: ProviderReply.string(object["seqid"]).flatMap(seqid),
            res: ProviderReply.string(object["res"]), httpStatus: status)
    }

    /// The number inside `res`: base64 of DES-CBC (key: the AppSecret's first 8 bytes, IV ASCII
    /// `00000000`, PKCS#5) around `{"isValid":1,"phone":"…","valid":true}`. DES is unauthenticated,
    /// so a wrong key shows as bad padding or as plaintext that is no such object: both are
    /// `msisdn_decrypt_failed`; a readable answer that says the number is not valid is a bad reply.
    public static func number(in res: String, key: [UInt8], des: DESCBC) throws(PassgateError) -> String {
        let text = String(decoding: res.utf8.filter { $0 > 0x20 }, as: UTF8.self)
        guard let ciphertext = Data(base64Encoded: text), !ciphertext.isEmpty, ciphertext.count % DESCBC.blockLength == 0 else {
            if MSISDN.isMainland(text) { throw failure("res is a plain phone number where MobTech's DES-encrypted answer belongs") }
            throw failure("res (\(text.utf8.count) characters) is not base64 of whole DES blocks")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try des.decrypt([UInt8](ciphertext), key: key, iv: Array("00000000".utf8))
        } catch {
            throw failure("DES decryption failed: the appSecret is not the one MobTech encrypted with", underlying: error)
        }
        guard let answer = try? ParsedJSON.parse(plaintext), case .object = answer else {
            throw failure("the decrypted res is not a JSON object (\(plaintext.count) bytes): the appSecret likely differs")
        }
        if ProviderReply.string(answer["isValid"]) == "0" || answer["valid"] == .bool(false) {
            throw ProviderReply.badReply(.malformedField("res", detail: "says the number is not valid (isValid 0)"))
        }
        guard let phone = ProviderReply.string(answer["phone"])?.trimmingASCIISpaces, !phone.isEmpty else {
            throw ProviderReply.badReply(.missingField("res.phone"))
        }
        guard MSISDN.isMainland(phone) else {
            throw ProviderReply.badReply(.malformedField("res.phone", detail: "is not an 11-digit mainland number"))
        }
        return phone
    }

    private static func failure(_ detail: String, underlying: (any Error & Sendable)? = nil) -> PassgateError {
        PassgateError(
            .msisdnDecryptFailed, .decryption(detail: detail), message: PassgateError.Code.msisdnDecryptFailed.defaultMessage + " (\(detail))",
            underlying: underlying)
    }

    /// MobTech's call id, kept when it is 1-64 letters, digits, `-` or `_` with no run of 7+ digits.
    private static func seqid(_ text: String) -> String? {
        var run = 0, longest = 0
        for byte in text.utf8 {
            run = (48...57).contains(byte) ? run + 1 : 0
            longest = max(longest, run)
        }
        guard (1...64).contains(text.utf8.count), longest < 7,
            text.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else { return nil }
        return text
    }
}
