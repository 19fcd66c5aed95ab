import OpenSSLCrypto
import PassgateCore

extension CMCCEmulator {
    /// `tokenValidate` (docs/cmcc.md, "Number verification"), checked in the carrier's order: parse,
    /// fields, version, app, msgId, time, client IP, keyType and sign; then the token is spent
    /// and its kind, the quota and the phone digest decide (000 / 001).
    func verify(_ call: EmulatorCall) -> Answer {
        var outcome = Answer(.verify, now: call.now)
        guard let root = call.request.json?.members else {
            return outcome.answer("303", "request body is not a JSON object")
        }
        let header: [String: ParsedJSON]
        let body: [String: ParsedJSON]
        switch (Self.section(root["header"]), Self.section(root["body"])) {
        case (.missing, _): return outcome.answer("102", "missing header")
        case (_, .missing): return outcome.answer("102", "missing body")
        case (.unparseable, _): return outcome.answer("303", "header is neither an object nor a JSON object string")
        case (_, .unparseable): return outcome.answer("303", "body is neither an object nor a JSON object string")
        case (.object(let h), .object(let b)): (header, body) = (h, b)
        }
        outcome.echo = header["msgId"]?.stringValue ?? ""
        outcome.appId = header["appId"]?.stringValue ?? ""
        for (name, section) in [("header", header), ("body", body)] {
            if let (key, value) = section.sorted(by: { $0.key < $1.key }).first(where: { $0.value.stringValue == nil }) {
                return outcome.answer("102", "\(name).\(key) is a JSON \(value.kindDescription); every value must be a string")
            }
        }
        let head = header.compactMapValues(\.stringValue)
        let fields = body.compactMapValues(\.stringValue)
        if let missing = ["version", "msgId", "timestamp", "appId"].first(where: { head[$0] == nil }) {
            return outcome.answer("102", "missing header.\(missing)")
        }
        if let missing = ["phoneNum", "token", "sign"].first(where: { fields[$0] == nil }) {
            return outcome.answer("102", "missing body.\(missing)")
        }
        if let problem = Self.requesterProblem(fields) { return outcome.answer("102", problem) }
        outcome.message = fields["message"] ?? ""
        outcome.expandParams = fields["expandParams"] ?? ""
        let (msgId, timestamp, appId) = (head["msgId"]!, head["timestamp"]!, head["appId"]!)
        let (phoneNum, token, sign) = (fields["phoneNum"]!, fields["token"]!, fields["sign"]!)
        guard head["version"] == CMCCVerifyRequest.version else {
            return outcome.answer("102", "header.version must be \(CMCCVerifyRequest.version)")
        }
        guard let app = call.app(appId, of: CMCC.providerID), let credentials = app.credentials as? Credentials, app.verifyEnabled else {
            return outcome.answer("103420", "app lacks the number-verification capability")
        }
        guard MessageID.isWellFormed(msgId) else { return outcome.answer("102", "header.msgId must be 1-36 characters of [0-9A-Za-z-]") }
        guard call.ledger.noteMessageID("verify:" + msgId, now: call.now) else {
            return outcome.answer("102", "duplicate msgId")
        }
        if let problem = call.timeProblem(timestamp, field: "header.timestamp") {
            return outcome.answer("102", problem)
        }
        guard call.isClientAllowed else {
            return outcome.answer("124", "IP whitelist check failed for \(call.request.peerIP ?? "unknown")")
        }
        guard (fields["keyType"] ?? "0") == "0" else {
            return outcome.answer("102", "keyType \(fields["keyType"]!) is not supported by the sandbox (keyType 1, RSA, is not emulated; use keyType 0)")
        }
        guard let appKey = credentials.appKey else { return outcome.answer("302", "sign check failed: no appKey is registered for this app") }
        let signed = appId + msgId + phoneNum + timestamp + token + CMCCVerifyRequest.version
        guard let mac = try? Digest.hmacSHA256(key: Array(appKey.utf8), data: Array(signed.utf8)),
            EmulatorChecks.hexMatches(sign, expected: Hex.uppercase(mac))
        else {
            return outcome.answer("302", "sign check failed (HMAC-SHA256 keyed by the appKey over appId+msgId+phoneNum+timestamp+token+version)")
        }

        // Accepted: a valid token is spent whatever follows.
        guard !token.isEmpty else { return outcome.answer("606", "token is empty") }
        guard SandboxToken.hasTokenShape(token) else { return outcome.answer("606", "token malformed") }
        let record: TokenRecord
        switch call.ledger.consume(token, now: call.now) {
        case .unknown: return outcome.answer("606", "token unknown or already used")
        case .expired: return outcome.answer("606", "token expired")
        case .consumed(let found): record = found
        }
        guard record.appId == appId else { return outcome.answer("606", "token was issued for another appId") }
        guard record.product == .verify else { return outcome.answer("606", "token is for login") }
        guard EmulatorChecks.isHex(phoneNum, byteCount: 32) else {
            return outcome.answer("004", "phoneNum must be SHA256(phone + appKey + timestamp) as 64 hex characters")
        }
        guard call.ledger.charge(appId: appId) else { return outcome.answer("102315", "package used up") }

        outcome.phoneNumber = record.phoneNumber
        outcome.taskId = SandboxToken.taskId()
        let expected = (try? Digest.sha256(Array((record.phoneNumber + appKey + timestamp).utf8))).map(Hex.uppercase) ?? ""
        return EmulatorChecks.hexMatches(phoneNum, expected: expected)
            ? outcome.answer("000", "is the phone's own number")
            : outcome.answer("001", "is not the phone's own number")
    }

    private enum Section {
        case object([String: ParsedJSON])
        case missing
        case unparseable
    }

    /// `header`/`body` as an object, also when sent as a JSON string (some integrations do).
    private static func section(_ value: ParsedJSON?) -> Section {
        switch value {
        case nil, .null?: .missing
        case .object?: value?.members.map(Section.object) ?? .unparseable
        case .string(let text)?: ParsedJSON.sandboxParse(Array(text.utf8))?.members.map(Section.object) ?? .unparseable
        default: .unparseable
        }
    }

    /// `requesterType` is "0" (app) or "1" (wap); an app request must say which network (`openType`).
    private static func requesterProblem(_ fields: [String: String]) -> String? {
        guard let requester = fields["requesterType"] else { return nil }
        guard requester == "0" || requester == "1" else { return "body.requesterType must be 0 or 1" }
        if requester == "0", !["0", "1", "2", "3"].contains(fields["openType"] ?? "") {
            return "body.openType must be 0-3 when requesterType is 0"
        }
        return nil
    }
}
