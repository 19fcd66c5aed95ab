import PassgateCore
import ProviderCMCC

/// The carrier's decision on one call, before any fault is applied.
struct CarrierOutcome: Sendable {
    enum Endpoint: Sendable { case login, verify }

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

    init(_ endpoint: Endpoint, timestamp: String) {
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
        switch endpoint {
        case .login: code == "103000"
        case .verify: code == "000" || code == "001"
        }
    }

    /// This outcome answered with `code` instead, described as CMCC's tables describe it, without
    /// the number. The task id stays: the carrier bills what it looked up.
    func forced(_ code: String) -> CarrierOutcome {
        let table = endpoint == .login ? CMCC.loginCodes : CMCC.verifyCodes
        var copy = answer(code, table.entries[code]?.meaning ?? "forced by PUT /sandbox/faults")
        copy.msisdn = nil
        return copy
    }

    /// The reply JSON, echoing `echo` (the request's msgid unless a fault says otherwise).
    func reply(echo: String) -> JSONStringTree {
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
