import Foundation
import OpenSSLCrypto
import PassgateCore

extension JVerificationEmulator {
    /// A JVerification call (docs/jverification.md), checked as JiGuang does: method, content
    /// type, Basic authentication against the app's appKey and Master Secret, client IP, the body's
    /// fields; then the token is spent and its app, kind and the quota decide.
    func check(_ call: EmulatorCall) -> Answer {
        let (request, endpoint) = (call.request, call.product)
        var outcome = Answer(endpoint)
        guard request.method == "POST" else { return outcome.answer("9013", "must be POST") }
        guard let type = request.contentType, type.lowercased().hasPrefix("application/json") else {
            return outcome.answer("9015", "content type not supported")
        }
        guard let (user, password) = Self.basicCredentials(request.authorization) else { return outcome.answer("9010", "missing auth") }
        // The appKey and Master Secret must be one app's pair.
        guard let (app, credentials) = call.firstApp(of: JVerification.providerID, Credentials.self, where: { credentials in
            credentials.appKey == user && constantTimeEquals(Array(credentials.masterSecret.utf8), Array(password.utf8))
        }) else { return outcome.answer("9011", "auth failed") }
        outcome.appId = app.appId
        guard let object = request.json?.members else { return outcome.answer("9012", "parameter invalid: not a JSON object") }
        outcome.echo = object["exID"]?.stringValue ?? ""
        guard call.isClientAllowed else { return outcome.answer("9031", "not a validated user (source IP not allowed)") }
        let tokenField = endpoint == .login ? "loginToken" : "token"
        guard let token = object[tokenField]?.stringValue, !token.isEmpty else { return outcome.answer("9012", "parameter invalid: \(tokenField)") }
        var phone: String?
        if endpoint == .verify {
            guard let number = object["phone"]?.stringValue, MSISDN.isMainland(number) else { return outcome.answer("9012", "parameter invalid: phone") }
            phone = number
        }

        // From here on JiGuang has the token: a valid one is spent whatever follows.
        guard SandboxToken.hasTokenShape(token) else { return outcome.answer("9004", "token format error") }
        let record: TokenRecord
        switch call.spend(token, for: app) {
        case .success(let spent): record = spent
        case .failure(.unknown): return outcome.answer("9003", "token expired or not exist")
        case .failure(.otherApp): return outcome.answer("9020", "decrypt token fail: issued for another app")
        case .failure(.otherProduct): return outcome.answer("9021", "token invalid for this API")
        case .failure(.disabled): return outcome.answer("9031", "not a validated user")
        case .failure(.noQuota): return outcome.answer("9018", "no money")
        }
        outcome.phoneNumber = record.phoneNumber
        outcome.taskId = String(UInt64.random(in: 100_000_000_000_000_000...UInt64(Int64.max)))
        if endpoint == .verify {
            return record.phoneNumber == phone ? outcome.answer("9000", "verify consistent") : outcome.answer("9001", "verify inconsistent")
        }
        guard let key = credentials.encryptionKey, let ciphertext = try? key.encrypt(Array(record.phoneNumber.utf8)) else {
            return outcome.answer("9022", "encrypt mobile fail")
        }
        outcome.msisdn = Data(ciphertext).base64EncodedString()
        if request.path == JVerificationRequest.loginPath(apiVersion: 2) { outcome.score = Self.riskScore(record.phoneNumber) }
        return outcome.answer("8000", "get phone success")
    }

    /// A stable score per number (0-900), so a demo shows the same value each time.
    static func riskScore(_ phoneNumber: String) -> Int {
        phoneNumber.utf8.reduce(0) { ($0 * 31 + Int($1)) % 901 }
    }

    /// `Basic base64(user:password)` split at the first colon.
    static func basicCredentials(_ header: String?) -> (String, String)? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
