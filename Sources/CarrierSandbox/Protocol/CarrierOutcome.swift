import PassgateCore
import ProviderCMCC
import ProviderAliyun
import ProviderJVerification
import ProviderShanyan

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
    /// Shanyan's verification answer, "1" or "0".
    var isVerify: String?
    /// The HTTP status of the answer: 200, but Alibaba Cloud's gateway answers its refusals with 4xx.
    var httpStatus = 200

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
        case (Shanyan.providerID, _): code == "200000"
        case (Aliyun.providerID, _): code == "OK"
        case (_, .login): code == "103000"
        case (_, .verify): code == "000" || code == "001"
        }
    }

    /// This outcome answered with `code` instead, described as the provider's tables describe it,
    /// without the number. The task id stays: the provider bills what it looked up.
    func forced(_ code: String) -> CarrierOutcome {
        let table = switch provider {
        case JVerification.providerID: JVerification.codes
        case Shanyan.providerID: Shanyan.codes
        case Aliyun.providerID: Aliyun.codes
        default: endpoint == .login ? CMCC.loginCodes : CMCC.verifyCodes
        }
        var copy = answer(code, table.entries[code]?.meaning ?? "forced by PUT /sandbox/faults")
        copy.msisdn = nil
        copy.score = nil
        copy.isVerify = nil
        // Alibaba Cloud's gateway codes come with a 4xx status; its business codes with 200.
        if provider == Aliyun.providerID, code != "OK", !code.hasPrefix("isv.") { copy.httpStatus = 400 }
        return copy
    }

    /// The reply body, echoing `echo` (the request's msgid or exID unless a fault says otherwise).
    func reply(echo: String) -> [UInt8] {
        switch provider {
        case JVerification.providerID: jverificationReply(echo: echo)
        case Shanyan.providerID: shanyanReply()
        case Aliyun.providerID: aliyunReply()
        default: cmccReply(echo: echo).bytes
        }
    }

    /// Alibaba Cloud's shape: `Code`, `Message`, `RequestId`, and the operation's result object;
    /// a gateway refusal adds `HostId` and `Recommend`.
    private func aliyunReply() -> [UInt8] {
        var object = JSONObjectWriter()
        object.add("RequestId", taskId ?? "00000000-0000-4000-8000-000000000000")
        if httpStatus != 200 { object.add("HostId", "dypnsapi.aliyuncs.com") }
        object.add("Code", code)
        object.add("Message", desc)
        if httpStatus != 200 { object.add("Recommend", "https://api.aliyun.com/troubleshoot?q=\(code)") }
        if code == "OK", endpoint == .login, let msisdn {
            var result = JSONObjectWriter()
            result.add("Mobile", msisdn)
            object.add("GetMobileResultDTO", object: result)
        } else if code == "OK", endpoint == .verify, let isVerify {
            var result = JSONObjectWriter()
            result.add("VerifyResult", isVerify)
            result.add("VerifyId", taskId)
            object.add("GateVerifyResultDTO", object: result)
        }
        return object.finish()
    }

    /// Shanyan's shape: `code` a string, `chargeStatus` 1 when billed, the rest under `data`.
    private func shanyanReply() -> [UInt8] {
        var data = JSONObjectWriter()
        data.add("tradeNo", taskId)
        data.add("mobileName", msisdn)
        data.add("isVerify", isVerify)
        var object = JSONObjectWriter()
        object.add("code", code)
        object.add("message", desc)
        object.add("chargeStatus", isSuccess || taskId != nil ? 1 : 0)
        if taskId != nil || msisdn != nil || isVerify != nil { object.add("data", object: data) }
        return object.finish()
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
