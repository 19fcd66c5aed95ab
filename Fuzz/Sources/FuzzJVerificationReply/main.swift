import FuzzSupport
import PassgateCore
import ProviderJVerification

// Fuzzes JVerificationReplyParser with a ReplyInput (first byte status and Content-Type, then the
// body). Invariants: a reply or a PassgateError of the reply layer without 7+ digit runs
// (checkReplyError); a reply only from a non-HTML JSON object with a `code`, 2xx or not; its code
// 1-6 ASCII digits; its id digits only (up to 20, never rounded); an echoed exID only ours; a
// score only from a number or digits in 0-1000.

/// The exID we "sent". No digits, so any digit run in an error came from the reply.
private let sentExID = "req-abcdefabcdef"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJVerificationReply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input = ReplyInput(fuzzInput(data, size)) else { return 0 }
    let document = input.protocolObject { $0["code"] != nil }
    do {
        let reply = try JVerificationReplyParser.parse(status: input.status, contentType: input.contentType, body: input.body, expectedExID: sentExID)
        guard let document else { Invariant.fail("reply from a non-protocol answer: \(reply)") }
        Invariant.check((1...6).contains(reply.code.utf8.count) && reply.code.utf8.allSatisfy { (48...57).contains($0) }, "code \(reply.code)")
        if let id = reply.id {
            Invariant.check((1...20).contains(id.utf8.count) && id.utf8.allSatisfy { (48...57).contains($0) }, "id \(id)")
            if case .number(let text)? = document["id"] { Invariant.check(text == id, "id \(text) became \(id)") }
        }
        if case .string(let echo)? = document["exID"], !echo.isEmpty { Invariant.check(echo == sentExID, "accepted the echo \(echo.debugDescription)") }
        if let score = reply.score { Invariant.check((0...1000).contains(score), "score \(score)") }
    } catch {
        checkReplyError(error, parser: "jverification")
    }
    return 0
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzJVerificationReply_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJVerificationReply)
}
