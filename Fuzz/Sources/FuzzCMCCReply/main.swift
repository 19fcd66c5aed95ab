import PassgateCore
import ProviderCMCC
import FuzzSupport

// Fuzzes CMCCReplyParser's login and verify parsers with the same input: a ReplyInput (first byte
// status and Content-Type, then the body). Invariants: a reply or a PassgateError of the reply
// layer (or a carrier answer) without 7+ digit runs (checkReplyError); a reply only from a
// non-HTML JSON object (after a byte order mark and blanks), 2xx or carrying the carrier's code,
// whose echo, if any, is our msgid; "000"/"001" only from a code of 0 or 1.

/// A verify reply says "000"/"001" only when the carrier's code says 0 or 1 (an empty code became
/// "000", a match: Fuzz/Findings/README.md). `PASSGATE_FUZZ_EMPTY_CODE=0` turns it off.
private let checkPaddedCode = fuzzSwitch("PASSGATE_FUZZ_EMPTY_CODE", default: true)

/// The msgid we "sent". No digits, so any digit run in an error came from the reply.
private let sentMsgid = "abcdefabcdefabcdefabcdefabcdefab"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCMCCReply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input = ReplyInput(fuzzInput(data, size)) else { return 0 }
    let msgid = input.upperCaseID ? sentMsgid.uppercased() : sentMsgid
    let loginDocument = input.protocolObject { $0["resultCode"] != nil || $0["resultcode"] != nil }
    let verifyDocument = input.protocolObject { $0["header"] != nil }

    do {
        let reply = try CMCCReplyParser.login(status: input.status, contentType: input.contentType, body: input.body, expectedMsgid: msgid)
        guard let document = loginDocument else { Invariant.fail("login reply from a non-protocol answer: \(reply)") }
        checkEcho(document["inresponseto"], parser: "login")
        Invariant.check(document["resultCode"] != nil || document["resultcode"] != nil, "login reply without a result code")
    } catch {
        checkReplyError(error, parser: "login")
    }

    do {
        let reply = try CMCCReplyParser.verify(status: input.status, contentType: input.contentType, body: input.body, expectedMsgId: msgid)
        guard let header = verifyDocument.flatMap({ object($0["header"]) }) else { Invariant.fail("verify reply without a header object: \(reply)") }
        checkEcho(header["msgId"], parser: "verify")
        if checkPaddedCode, reply.resultCode == "000" || reply.resultCode == "001" {
            let raw = header["resultCode"] ?? header["resultcode"]
            Invariant.check(isZeroOrOne(raw), "verify reply \(reply.resultCode) from header resultCode \(String(describing: raw))")
        }
    } catch {
        checkReplyError(error, parser: "verify")
    }
    return 0
}

/// An echo, when there is one, is the msgid we sent in any ASCII letter case. A number never is
/// (the msgid has no digits).
private func checkEcho(_ echo: ParsedJSON?, parser: String) {
    switch echo {
    case nil, .null?, .bool?, .array?, .object?: return  // absent or not a string: the parser ignores it
    case .number(let text)?: Invariant.fail("\(parser) reply accepted the numeric echo \(text)")
    case .string(let text)?: Invariant.check(isEcho(text, of: sentMsgid), "\(parser) reply accepted the echo \(text.debugDescription)")
    }
}

/// An object, or a string holding one (how some CMCC gateways send `header` and `body`).
private func object(_ value: ParsedJSON?) -> ParsedJSON? {
    switch value {
    case .object?: return value
    case .string(let text)?:
        guard let parsed = try? ParsedJSON.parse(Array(text.utf8)), case .object = parsed else { return nil }
        return parsed
    default: return nil
    }
}

/// A result code that means 0 or 1: a non-empty run of ASCII digits, or a number, of value 0 or 1.
private func isZeroOrOne(_ value: ParsedJSON?) -> Bool {
    switch value {
    case .string(let text)?: return !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } && (Int(text) == 0 || Int(text) == 1)
    case .number(let text)?: return Double(text) == 0 || Double(text) == 1
    default: return false
    }
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzCMCCReply_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzCMCCReply)
}
