import Foundation
import OpenSSLCrypto
import PassgateCore

extension AliyunEmulator {
    /// An Alibaba Cloud RPC call to `POST /` (docs/aliyun.md), checked as the gateway does first
    /// (answering 4xx: API, parameters, AccessKey, timestamp, signature, nonce), then as the
    /// service does (answering 200: the token, its app and kind, the subscription and the balance).
    func check(_ call: EmulatorCall) -> Answer {
        let request = call.request
        let fields = request.method == "POST" ? (request.formFields ?? [:]) : [:]
        // One endpoint for both products: the Action decides.
        var call = call
        call.product = fields["Action"] == "VerifyMobile" ? .verify : .login
        let (endpoint, now) = (call.product, call.now)
        var outcome = Answer(endpoint)
        outcome.echo = fields["SignatureNonce"] ?? ""
        func gateway(_ status: Int, _ code: String, _ message: String) -> Answer {
            var refused = outcome.answer(code, message)
            refused.httpStatus = status
            return refused
        }
        guard let action = fields["Action"], action == "GetMobile" || action == "VerifyMobile" else {
            return gateway(404, "InvalidApi.NotFound", "Specified api is not found, please check your url and method.")
        }
        let common = ["AccessKeyId", "Format", "SignatureMethod", "SignatureNonce", "SignatureVersion", "Timestamp", "Version", "Signature"]
        let business = endpoint == .login ? ["AccessToken"] : ["AccessCode", "PhoneNumber"]
        if let missing = (common + business).first(where: { (fields[$0] ?? "").isEmpty }) {
            return gateway(400, "Missing\(missing)", "\(missing) is mandatory for this action.")
        }
        guard let (app, credentials) = call.firstApp(of: Aliyun.providerID, Credentials.self, where: { $0.accessKeyId == fields["AccessKeyId"] })
        else { return gateway(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.") }
        outcome.appId = app.appId
        let secret = credentials.accessKeySecret
        guard let sent = Self.aliyunTime(fields["Timestamp"]!) else {
            return gateway(400, "InvalidTimeStamp.Format", "Specified time stamp or date value is not well formatted.")
        }
        guard abs(sent - now) <= 15 * 60 * 1000 else { return gateway(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.") }
        let sorted = fields.filter { $0.key != "Signature" }.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { (name: $0.key, value: $0.value) }
        guard fields["SignatureMethod"] == "HMAC-SHA1", fields["SignatureVersion"] == "1.0",
            let mac = try? Digest.hmacSHA1(key: Array((secret + "&").utf8), data: Array(AliyunRequest.stringToSign(method: "POST", sorted).utf8)),
            constantTimeEquals(Array(Data(mac).base64EncodedString().utf8), Array(fields["Signature"]!.utf8))
        else { return gateway(400, "SignatureDoesNotMatch", "Specified signature is not matched with our calculation.") }
        guard call.ledger.noteMessageID("aliyun:" + fields["SignatureNonce"]!, now: now) else {
            return gateway(400, "SignatureNonceUsed", "Specified signature nonce was used already.")
        }
        guard fields["Format"] == "JSON", fields["Version"] == AliyunRequest.version else {
            return gateway(400, "InvalidParameter", "Format must be JSON and Version 2017-05-25 for this sandbox.")
        }
        outcome.taskId = Self.uuid()

        // The service has the token now: a valid one is spent whatever follows.
        let token = endpoint == .login ? fields["AccessToken"]! : fields["AccessCode"]!
        let record: TokenRecord
        switch call.spend(token, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown): return outcome.answer("isv.TOKEN_INVALID", "token invalid")
        case .failure(.otherApp): return outcome.answer("isv.TOKEN_INVALID", "token invalid for this AccessKey's app")
        case .failure(.otherProduct): return outcome.answer("isv.TOKEN_UNAUTHORIZED_USED", "token unauthorized for this API")
        case .failure(.disabled): return outcome.answer("isv.PRODUCT_UN_SUBSCRIPT", "product not subscribed")
        case .failure(.noQuota): return outcome.answer("isv.OUT_OF_SERVICE", "account in arrears")
        }
        outcome.phoneNumber = record.phoneNumber
        if endpoint == .verify {
            outcome.verdict = fields["PhoneNumber"] == record.phoneNumber ? "PASS" : "REJECT"
        } else {
            outcome.msisdn = record.phoneNumber
        }
        return outcome.answer("OK", "请求成功")
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, as milliseconds since the epoch.
    static func aliyunTime(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            bytes[range].allSatisfy { (48...57).contains($0) } ? Int64(String(decoding: bytes[range], as: UTF8.self)) : nil
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        return (CivilDate.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1000
    }

    /// A request id in Alibaba Cloud's form (an upper-case UUID).
    static func uuid() -> String {
        let hex = MessageID.make().uppercased()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
