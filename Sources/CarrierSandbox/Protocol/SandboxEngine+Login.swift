import PassgateCore
import ProviderCMCC
import OpenSSLCrypto
import Synchronization

extension SandboxEngine {
    static let loginRequiredFields = ["version", "msgid", "systemtime", "strictcheck", "appid", "token", "sign"]

    /// `loginTokenValidate` (docs/cmcc.md, "Phone number"), checked in the carrier's order: shape,
    /// fields, version, appid, msgid, time, client IP, signature; then the token is spent and
    /// its kind, the app's capability and the quota decide.
    func validateLogin(_ request: SandboxRequest, settings: RuntimeSettings, now: Int64) -> CarrierOutcome {
        var outcome = CarrierOutcome(.login, timestamp: BeijingTimestamp.string(milliseconds: now))
        guard let object = ParsedJSON.sandboxParse(request.body)?.members else {
            return outcome.answer("103211", "request body is not a JSON object")
        }
        outcome.echo = object["msgid"]?.stringValue ?? ""
        outcome.appId = object["appid"]?.stringValue ?? ""
        if let (key, value) = object.sorted(by: { $0.key < $1.key }).first(where: { $0.value.stringValue == nil }) {
            return outcome.answer("103211", "field \(key) is a JSON \(value.kindDescription); every value must be a string")
        }
        let fields = object.compactMapValues(\.stringValue)
        if let missing = Self.loginRequiredFields.first(where: { fields[$0] == nil }) {
            return outcome.answer("103414", "missing field \(missing)")
        }
        let (msgid, appid, token) = (fields["msgid"]!, fields["appid"]!, fields["token"]!)
        guard fields["version"] == CMCCLoginRequest.version else {
            return outcome.answer("103414", "version must be \(CMCCLoginRequest.version)")
        }
        guard fields["strictcheck"] == "0" || fields["strictcheck"] == "1" else {
            return outcome.answer("103414", "strictcheck must be 0 or 1")
        }
        guard let app = apps[appid], app.provider == CMCC.providerID else { return outcome.answer("103119", "appid does not exist") }
        guard MessageID.isWellFormed(msgid) else {
            return outcome.answer("103414", "msgid must be 1-36 characters of [0-9A-Za-z-]")
        }
        guard ledger.withLock({ $0.noteMsgid("login:" + msgid, now: now) }) else {
            return outcome.answer("103107", "duplicate msgid")
        }
        if let problem = CarrierChecks.timeProblem(
            fields["systemtime"]!, field: "systemtime", now: now, maxSkewSeconds: configuration.maxClockSkewSeconds
        ) {
            return outcome.answer("103414", problem)
        }
        guard Self.isAllowed(request.peerIP, settings) else {
            return outcome.answer("103511", "source IP \(request.peerIP ?? "unknown") is not whitelisted")
        }
        let rsaMode = fields["encryptionalgorithm"] == "RSA"
        if let problem = signatureProblem(fields, app: app, rsaMode: rsaMode) {
            return outcome.answer("103101", problem)
        }

        // From here on the carrier has accepted the request: a valid token is spent whatever follows.
        guard !token.isEmpty else { return outcome.answer("103811", "token is empty") }
        guard SandboxToken.hasTokenShape(token) else { return outcome.answer("103113", "token malformed") }
        let record: TokenRecord
        switch ledger.withLock({ $0.consume(token, now: now) }) {
        case .unknown: return outcome.answer("104201", "token unknown or already used")
        case .expired: return outcome.answer("104201", "token expired")
        case .consumed(let found): record = found
        }
        guard record.appId == appid else { return outcome.answer("103133", "sourceid invalid: token was issued for another appid") }
        guard record.product == .login else {
            return outcome.answer("105018", "token lacks permission: it was issued for number verification")
        }
        guard app.loginEnabled else { return outcome.answer("105019", "app is not authorized for one-click login") }
        guard ledger.withLock({ $0.charge(appId: appid) }) else { return outcome.answer("105312", "package used up") }

        outcome.phoneNumber = record.phoneNumber
        if rsaMode {
            guard let key = app.msisdnKey, let ciphertext = try? key.encrypt(Array(record.phoneNumber.utf8)) else {
                return outcome.answer("103404", "encryption failed")
            }
            outcome.msisdn = Hex.uppercase(ciphertext)
        } else {
            outcome.msisdn = record.phoneNumber
        }
        outcome.taskId = SandboxToken.taskId()
        return outcome.answer("103000", "success")
    }

    /// Why the sign does not verify, or `nil` when it does.
    private func signatureProblem(_ fields: [String: String], app: SandboxApp, rsaMode: Bool) -> String? {
        let (appid, token, sign) = (fields["appid"]!, fields["token"]!, fields["sign"]!)
        if rsaMode {
            guard let key = app.signingKey else { return "RSA mode is not configured for this app (no signing key)" }
            guard let signature = Hex.decode(sign), !signature.isEmpty else { return "sign is not hex" }
            let valid = (try? key.verify(signature, for: Array((appid + token).utf8), digest: .sha256)) ?? false
            return valid ? nil : "SHA256withRSA sign over appid+token does not verify with the registered key"
        }
        guard let secret = app.md5Secret else { return "MD5 mode is not configured for this app (no secret)" }
        let input = appid + fields["version"]! + fields["msgid"]! + fields["systemtime"]! + fields["strictcheck"]! + token + secret
        guard let digest = try? Digest.md5(Array(input.utf8)) else { return "MD5 unavailable" }
        return CarrierChecks.hexMatches(sign, expected: Hex.uppercase(digest))
            ? nil : "MD5 sign mismatch (appid+version+msgid+systemtime+strictcheck+token+secret)"
    }
}
