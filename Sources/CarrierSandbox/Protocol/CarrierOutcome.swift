import PassgateCore
import ProviderCMCC
import ProviderJVerification

/// The provider's decision on one call, before any fault is applied.
struct CarrierOutcome: Sendable {
    enum Endpoint: Sendable { case login, verify }

    /// Whose protocol the call spoke (`cmcc`, `jverification`): it decides the reply's shape.
    var provider: String
    var endpoint: Endpoint
    var code = ""
    var desc = ""
    /// The request's msgid, echoed in `inresponseto` / `header.msgId` ("" when none was readable).
    var echo = ""
    var appId = ""
    /// Sandbox "now" in Beijing time, the reply's `systemtime` / `header.timestamp`.
    var timestamp: String
    /// Login success: the msisdn as sent (plain, or RSA ciphertext in hex).
    var msisdn: String?
    var taskId: String?
    /// Number verification: passed through from the request body.
    var message = ""
    var expandParams = ""
    /// The real number behind the token, for the masked log line only.
    var phoneNumber: String?
    /// JVerification's v2 login answers a risk score.
    var score: Int?

    init(_ endpoint: Endpoint, provider: String = CMCC.providerID, timestamp: String) {
        self.provider = provider
        self.endpoint = endpoint
        self.timestamp = timestamp
    }

    /// This outcome with `code` and `desc` set: the final word of a check sequence.
    func answer(_ code: String, _ desc: String) -> CarrierOutcome {
        var copy = self
        copy.code = code
        copy.desc = desc
        return copy
    }

    /// Whether this is a success (login) or a billed match/mismatch (verification).
    var isSuccess: Bool {
        switch (provider, endpoint) {
        case (JVerification.providerID, .login): code == "8000"
        case (JVerification.providerID, .verify): code == "9000" || code == "9001" || code == "9002"
        case (_, .login): code == "103000"
        case (_, .verify): code == "000" || code == "001"
        }
    }

    /// This outcome answered with `code` instead, described as the provider's tables describe it,
    /// without the number. The task id stays: the provider bills what it looked up.
    func forced(_ code: String) -> CarrierOutcome {
        let table = provider == JVerification.providerID ? JVerification.codes : endpoint == .login ? CMCC.loginCodes : CMCC.verifyCodes
        var copy = answer(code, table.entries[code]?.meaning ?? "forced by PUT /sandbox/faults")
        copy.msisdn = nil
        copy.score = nil
        return copy
    }

    /// The reply body, echoing `echo` (the request's msgid or exID unless a fault says otherwise).
    func reply(echo: String) -> [UInt8] {
        provider == JVerification.providerID ? jverificationReply(echo: echo) : cmccReply(echo: echo).bytes
    }

    /// JVerification's shape: `code` and `id` as JSON numbers, `phone` base64.
    private func jverificationReply(echo: String) -> [UInt8] {
        var object = JSONObjectWriter()
        if let taskId { object.add("id", json: Array(taskId.utf8)) }
        object.add("code", json: Array((code.isEmpty ? "0" : code).utf8))
        object.add("content", desc)
        if !echo.isEmpty { object.add("exID", echo) }
        object.add("phone", msisdn)
        if let score { object.add("score", score) }
        return object.finish()
    }

    private func cmccReply(echo: String) -> JSONStringTree {
        switch endpoint {
        case .login:
            var fields: [(String, JSONStringTree)] = [
                ("inresponseto", .string(echo)), ("systemtime", .string(timestamp)),
                ("resultCode", .string(code)), ("desc", .string(desc)),
            ]
            if let msisdn { fields.append(("msisdn", .string(msisdn))) }
            if let taskId { fields.append(("taskId", .string(taskId))) }
            return .object(fields)
        case .verify:
            var body: [(String, JSONStringTree)] = [
                ("resultDesc", .string(desc)), ("message", .string(message)), ("expandParams", .string(expandParams)),
            ]
            if let taskId { body.append(("taskId", .string(taskId))) }
            return .object([
                ("header", .object([
                    ("msgId", .string(echo)), ("timestamp", .string(timestamp)),
                    ("appId", .string(appId)), ("resultCode", .string(code)),
                ])),
                ("body", .object(body)),
            ])
        }
    }
}
