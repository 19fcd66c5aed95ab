import PassgateCore

/// CMCC's fuzz entry (the reply-fuzz host, docs/fuzzing.md): an MD5 app that can verify, the
/// prepared msgid put where the seeds echo theirs, and CMCC's own rules for what a reply may say.
extension CMCCProvider: ReplyFuzzing {
    /// The msgid the seed replies echo (`Fuzz/Corpus/ProviderReply-cmcc`), as long as a real one:
    /// the host puts the prepared call's msgid in its place, so a fuzzed reply can still succeed.
    static let fuzzMsgidPlaceholder = Array("abcdefabcdefabcdefabcdefabcdefab".utf8)

    public func fuzzApp() throws -> FuzzApp {
        let secret = "fuzz-secret-cmcc", appKey = "fuzz-appkey-cmcc"
        return FuzzApp(app: try CMCCApp(appId: "fuzzapp", signMode: .md5, secret: secret, appKey: appKey), secrets: [secret, appKey])
    }

    /// The placeholder replaced by the call's msgid, in upper case when the input asks for it.
    public func fuzzReply(_ input: ReplyInput, to call: FuzzedCall) -> ReplyInput {
        let msgid = Array((input.upperCaseID ? call.request.msgid.uppercased() : call.request.msgid.lowercased()).utf8)
        var input = input
        var body: [UInt8] = []
        var index = 0
        while index < input.body.count {
            if input.body[index...].starts(with: Self.fuzzMsgidPlaceholder) {
                body += msgid
                index += Self.fuzzMsgidPlaceholder.count
            } else {
                body.append(input.body[index])
                index += 1
            }
        }
        input.body = body
        return input
    }

    /// The rules of ``checkLogin(code:input:call:)`` or ``checkVerify(code:input:call:)``, for
    /// an answer with a code (one that parsed).
    public func checkAnswer<Value: Sendable>(_ answer: ProviderAnswer<Value>, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let code = answer.rawCode else { return nil }
        switch call.operation {
        case .phoneNumber: return Self.checkLogin(code: code, input: input, call: call)
        case .verify: return Self.checkVerify(code: code, input: input, call: call)
        }
    }

    /// A code only from a non-HTML JSON object with a result code, 2xx or not; an echoed
    /// `inresponseto`, when a string, is our msgid in any letter case, and never a number.
    private static func checkLogin(code: String, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let document = input.protocolObject(isAnswer: { $0["resultCode"] != nil || $0["resultcode"] != nil }),
            document["resultCode"] != nil || document["resultcode"] != nil
        else { return "code \(code) from a reply that is no protocol answer" }
        return echoProblem(document["inresponseto"], sent: call.request.msgid)
    }

    /// A code only from a reply with a `header` object (or a string holding one) whose echoed
    /// `msgId` is ours; `000`/`001` (match, mismatch) only when the header's code is 0 or 1: an
    /// empty or padded result code is never a match (Fuzz/Findings/README.md).
    private static func checkVerify(code: String, input: ReplyInput, call: FuzzedCall) -> String? {
        guard let header = object(input.protocolObject(isAnswer: { $0["header"] != nil })?["header"]) else {
            return "code \(code) from a reply without a header object"
        }
        if let problem = echoProblem(header["msgId"], sent: call.request.msgid) { return problem }
        let raw = header["resultCode"] ?? header["resultcode"]
        if code == "000" || code == "001", !isZeroOrOne(raw) { return "code \(code) from header resultCode \(String(describing: raw))" }
        return nil
    }

    /// An echo that is a string must be `sent` in any letter case; a number never is one.
    private static func echoProblem(_ echo: ParsedJSON?, sent: String) -> String? {
        switch echo {
        case .number(let text)?: "accepted the numeric echo \(text)"
        case .string(let text)?: FuzzText.isEcho(text, of: sent) ? nil : "accepted the echo \(text.debugDescription)"
        default: nil  // absent or not a string: the parser ignores it
        }
    }

    /// An object, or a string holding one (how some CMCC gateways send `header` and `body`).
    private static func object(_ value: ParsedJSON?) -> ParsedJSON? {
        switch value {
        case .object?: return value
        case .string(let text)?:
            guard let parsed = try? ParsedJSON.parse(Array(text.utf8)), case .object = parsed else { return nil }
            return parsed
        default: return nil
        }
    }

    /// A result code that means 0 or 1: a non-empty run of ASCII digits, or a number, of value 0 or 1.
    private static func isZeroOrOne(_ value: ParsedJSON?) -> Bool {
        switch value {
        case .string(let text)?: !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } && (Int(text) == 0 || Int(text) == 1)
        case .number(let text)?: Double(text) == 0 || Double(text) == 1
        default: false
        }
    }
}
