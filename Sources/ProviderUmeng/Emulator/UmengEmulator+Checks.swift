import Foundation
import OpenSSLCrypto
import PassgateCore

extension UmengEmulator {
    /// A U-Verify call, checked as the API gateway does (AppKey, timestamp in ms within 15
    /// minutes, nonce, signature over the signed headers and the sorted query), then as Umeng does
    /// (the appkey, the body's fields, the one-time token and its app, kind and quota).
    func check(_ call: EmulatorCall) -> Answer {
        let request = call.request
        var outcome = Answer(call.product)
        outcome.echo = request.header("x-ca-nonce") ?? ""
        guard let key = request.header("x-ca-key"),
            let (app, credentials) = call.firstApp(of: Umeng.providerID, Credentials.self, where: { $0.gatewayAppKey == key })
        else { return outcome.refused(400, "Invalid AppKey") }
        outcome.appId = app.appId
        guard let sent = request.header("x-ca-timestamp").flatMap({ Int64($0) }), abs(sent - call.now) <= 15 * 60 * 1000 else {
            return outcome.refused(400, "Invalid Timestamp")
        }
        let names = (request.header("x-ca-signature-headers") ?? "").split(separator: ",").map { String($0).trimmingASCIISpaces.lowercased() }
        let query = request.query.split(separator: "&").map(String.init).sorted().joined(separator: "&")
        let stringToSign = UmengRequest.stringToSign(
            method: request.method, accept: request.header("Accept") ?? "", contentMD5: request.header("Content-MD5") ?? "",
            contentType: request.header("Content-Type") ?? "", date: request.header("Date") ?? "",
            headers: names.map { (name: $0, value: request.header($0) ?? "") }, pathAndQuery: request.path + (query.isEmpty ? "" : "?" + query))
        guard names.contains("x-ca-timestamp"), names.contains("x-ca-nonce"),
            let mac = try? Digest.hmacSHA256(key: Array(credentials.gatewayAppSecret.utf8), data: Array(stringToSign.utf8)),
            constantTimeEquals(Array(Data(mac).base64EncodedString().utf8), Array((request.header("x-ca-signature") ?? "").utf8))
        else {
            // The gateway quotes its StringToSign with '#' for each line feed, so it fits in a header.
            return outcome.refused(400, "Invalid Signature, Server StringToSign:`\(stringToSign.replacingOccurrences(of: "\n", with: "#"))`")
        }
        guard !outcome.echo.isEmpty, call.ledger.noteMessageID("umeng:" + outcome.echo, now: call.now) else { return outcome.refused(400, "Nonce Used") }

        // Umeng's side: the appkey, the body, then the token.
        let appkey = request.query.split(separator: "&").first { $0.hasPrefix("appkey=") }.map { String($0.dropFirst(7)).removingPercentEncoding ?? "" }
        guard appkey == credentials.appkey else { return outcome.answer(SandboxCode.badRequest, "appkey does not match the Marketplace app") }
        guard let object = request.json?.members, let token = object["token"]?.stringValue, !token.isEmpty else {
            return outcome.answer(SandboxCode.badRequest, "token is required")
        }
        var phone: String?
        if call.product == .verify {
            guard let number = object["phoneNumber"]?.stringValue, MSISDN.isMainland(number) else { return outcome.answer(SandboxCode.badRequest, "phoneNumber is invalid") }
            phone = number
        }
        let record: TokenRecord
        switch call.spend(token, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown), .failure(.otherApp), .failure(.otherProduct): return outcome.answer(SandboxCode.tokenInvalid, "token invalid (sandbox code)")
        case .failure(.disabled): return outcome.answer(SandboxCode.disabled, "service not enabled (sandbox code)")
        case .failure(.noQuota): return outcome.answer(SandboxCode.noQuota, "no balance (sandbox code)")
        }
        outcome.phoneNumber = record.phoneNumber
        if call.product == .verify {
            outcome.verdict = record.phoneNumber == phone ? "PASS" : "REJECT"
        } else {
            outcome.msisdn = record.phoneNumber
        }
        return outcome.answer("200", "success")
    }

    /// A request id as the gateway sends one (an upper-case UUID).
    static func requestId() -> String {
        let hex = MessageID.make().uppercased()
        return [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)].joined(separator: "-")
    }
}
