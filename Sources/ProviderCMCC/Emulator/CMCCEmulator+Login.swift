import OpenSSLCrypto
import PassgateCore

extension CMCCEmulator {
    static let loginRequiredFields = ["version", "msgid", "systemtime", "strictcheck", "appid", "token", "sign"]

    /// `loginTokenValidate` (docs/cmcc.md, "Phone number"), checked in the carrier's order: shape,
    /// fields, version, appid, msgid, time, client IP, signature; then the token is spent and
    /// its kind, the app's capability and the quota decide.
    func login(_ call: EmulatorCall) -> Answer {
        var outcome = Answer(.login, now: call.now)
        guard let object = call.request.json?.members else {
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
        guard let app = call.app(appid, of: CMCC.providerID), let credentials = app.credentials as? Credentials else {
            return outcome.answer("103119", "appid does not exist")
        }
        guard MessageID.isWellFormed(msgid) else {
            return outcome.answer("103414", "msgid must be 1-36 characters of [0-9A-Za-z-]")
        }
        guard call.ledger.noteMessageID("login:" + msgid, now: call.now) else {
            return outcome.answer("103107", "duplicate msgid")
        }
        if let problem = call.timeProblem(fields["systemtime"]!, field: "systemtime") {
            return outcome.answer("103414", problem)
        }
        guard call.isClientAllowed else {
            return outcome.answer("103511", "source IP \(call.request.peerIP ?? "unknown") is not whitelisted")
        }
        let rsaMode = fields["encryptionalgorithm"] == "RSA"
        if let problem = Self.signatureProblem(fields, credentials: credentials, rsaMode: rsaMode) {
            return outcome.answer("103101", problem)
        }

        // From here on the carrier has accepted the request: a valid token is spent whatever follows.
        guard !token.isEmpty else { return outcome.answer("103811", "token is empty") }
        guard SandboxToken.hasTokenShape(token) else { return outcome.answer("103113", "token malformed") }
        let record: TokenRecord
        switch call.ledger.consume(token, now: call.now) {
        case .unknown: return outcome.answer("104201", "token unknown or already used")
        case .expired: return outcome.answer("104201", "token expired")
        case .consumed(let found): record = found
        }
        guard record.appId == appid else { return outcome.answer("103133", "sourceid invalid: token was issued for another appid") }
        guard record.product == .login else {
            return outcome.answer("105018", "token lacks permission: it was issued for number verification")
        }
        guard app.loginEnabled else { return outcome.answer("105019", "app is not authorized for one-click login") }
        guard call.ledger.charge(appId: appid) else { return outcome.answer("105312", "package used up") }

        outcome.phoneNumber = record.phoneNumber
        if rsaMode {
            guard let key = credentials.msisdnKey, let ciphertext = try? key.encrypt(Array(record.phoneNumber.utf8)) else {
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
    private static func signatureProblem(_ fields: [String: String], credentials: Credentials, rsaMode: Bool) -> String? {
        let (appid, token, sign) = (fields["appid"]!, fields["token"]!, fields["sign"]!)
        if rsaMode {
            guard let key = credentials.signingKey else { return "RSA mode is not configured for this app (no signing key)" }
            guard let signature = Hex.decode(sign), !signature.isEmpty else { return "sign is not hex" }
            let valid = (try? key.verify(signature, for: Array((appid + token).utf8), digest: .sha256)) ?? false
            return valid ? nil : "SHA256withRSA sign over appid+token does not verify with the registered key"
        }
        guard let secret = credentials.md5Secret else { return "MD5 mode is not configured for this app (no secret)" }
        let input = appid + fields["version"]! + fields["msgid"]! + fields["systemtime"]! + fields["strictcheck"]! + token + secret
        guard let digest = try? Digest.md5(Array(input.utf8)) else { return "MD5 unavailable" }
        return EmulatorChecks.hexMatches(sign, expected: Hex.uppercase(digest))
            ? nil : "MD5 sign mismatch (appid+version+msgid+systemtime+strictcheck+token+secret)"
    }
}
