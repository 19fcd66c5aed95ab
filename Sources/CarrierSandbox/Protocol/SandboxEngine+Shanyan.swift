import Foundation
import OpenSSLCrypto
import PassgateCore
import ProviderShanyan
import Synchronization

extension SandboxEngine {
    /// The Shanyan paths the sandbox serves, and the operation each is.
    static let shanyanPaths: [String: CarrierOutcome.Endpoint] = [ShanyanRequest.loginPath: .login, ShanyanRequest.verifyPath: .verify]

    /// Shanyan publishes no code table, so the sandbox's refusals use codes of its own, in a range
    /// no success shares: Passgate maps them as it maps any unpublished code (`carrier_error`).
    enum ShanyanCode {
        static let success = "200000"
        static let badRequest = "400001"
        static let unknownApp = "400002"
        static let badSign = "400003"
        static let ipNotAllowed = "400004"
        static let tokenInvalid = "400101"
        static let tokenOtherApp = "400102"
        static let tokenWrongProduct = "400103"
        static let noBalance = "400201"
        static let disabled = "400202"
        static let encryptFailed = "500001"
    }

    /// A Shanyan call (docs/shanyan.md), checked in this order: method, form body, fields, app,
    /// client IP, sign (hex HMAC-SHA256 under the appKey, either letter case); then the token is
    /// spent and its app, kind, the app's capability and the quota decide.
    func validateShanyan(_ endpoint: CarrierOutcome.Endpoint, _ request: SandboxRequest, settings: RuntimeSettings, now: Int64) -> CarrierOutcome {
        var outcome = CarrierOutcome(endpoint, provider: Shanyan.providerID, timestamp: BeijingTimestamp.string(milliseconds: now))
        guard request.method == "POST" else { return outcome.answer(ShanyanCode.badRequest, "method must be POST") }
        guard let type = request.contentType, type.lowercased().hasPrefix("application/x-www-form-urlencoded"),
            let fields = Self.formFields(request.body)
        else { return outcome.answer(ShanyanCode.badRequest, "body must be application/x-www-form-urlencoded") }
        outcome.echo = fields["outId"] ?? ""
        let required = endpoint == .login ? ["appId", "token", "sign"] : ["appId", "token", "mobile", "sign"]
        if let missing = required.first(where: { (fields[$0] ?? "").isEmpty }) { return outcome.answer(ShanyanCode.badRequest, "\(missing) is required") }
        guard let app = apps[fields["appId"]!], app.provider == Shanyan.providerID, let appKey = app.appKey else {
            return outcome.answer(ShanyanCode.unknownApp, "appId does not exist")
        }
        outcome.appId = app.appId
        guard Self.isAllowed(request.peerIP, settings) else { return outcome.answer(ShanyanCode.ipNotAllowed, "IP not in the whitelist") }
        let signed = fields.filter { $0.key != "sign" }.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { $0.key + $0.value }.joined()
        guard let mac = try? Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(signed.utf8)),
            CarrierChecks.hexMatches(fields["sign"]!, expected: Hex.uppercase(mac))
        else { return outcome.answer(ShanyanCode.badSign, "sign check failed") }

        // From here on the token is spent whatever follows.
        let record: TokenRecord
        switch spend(fields["token"]!, for: app, endpoint: endpoint, now: now) {
        case .success(let spent): record = spent
        case .failure(.unknown): return outcome.answer(ShanyanCode.tokenInvalid, "token invalid or expired")
        case .failure(.otherApp): return outcome.answer(ShanyanCode.tokenOtherApp, "token does not belong to this appId")
        case .failure(.otherProduct): return outcome.answer(ShanyanCode.tokenWrongProduct, "token is for the other product")
        case .failure(.disabled): return outcome.answer(ShanyanCode.disabled, "product not enabled")
        case .failure(.noQuota): return outcome.answer(ShanyanCode.noBalance, "balance insufficient")
        }
        outcome.phoneNumber = record.phoneNumber
        outcome.taskId = "SY" + String(MessageID.make().prefix(24))
        if endpoint == .verify {
            outcome.isVerify = fields["mobile"] == record.phoneNumber ? "1" : "0"
            return outcome.answer(ShanyanCode.success, "success")
        }
        if fields["encryptType"] == "1" {
            guard let key = app.msisdnKey, let cipher = try? key.encrypt(Array(record.phoneNumber.utf8)) else {
                return outcome.answer(ShanyanCode.encryptFailed, "no RSA key registered")
            }
            outcome.msisdn = Hex.lowercase(cipher)
        } else {
            guard let derived = try? ShanyanProvider.aesKeyAndIV(appKey: appKey),
                let cipher = try? AESCBC.encrypt(Array(record.phoneNumber.utf8), key: derived.key, iv: derived.iv)
            else { return outcome.answer(ShanyanCode.encryptFailed, "encryption failed") }
            outcome.msisdn = Hex.lowercase(cipher)
        }
        return outcome.answer(ShanyanCode.success, "success")
    }

    /// A form body's fields (the last of a repeated name wins); nil when it is not valid UTF-8.
    static func formFields(_ body: [UInt8]) -> [String: String]? {
        guard let text = String(bytes: body, encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                let value = (parts.count > 1 ? String(parts[1]) : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return nil }
            fields[name] = value
        }
        return fields
    }
}
