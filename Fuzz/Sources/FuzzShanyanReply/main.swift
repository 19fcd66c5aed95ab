import FuzzSupport
import PassgateCore
import ProviderShanyan

// Fuzzes ShanyanReplyParser with a ReplyInput (first byte status and Content-Type, then the body).
// Invariants: a reply or a PassgateError of the reply layer without 7+ digit runs
// (checkReplyError); a reply only from a non-HTML JSON object with a `code`, 2xx or not; its code
// 1-6 ASCII digits; `charged` only from a chargeStatus of 1; a tradeNo only of letters, digits,
// '-' and '_' (1-64).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShanyanReply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input = ReplyInput(fuzzInput(data, size)) else { return 0 }
    let document = input.protocolObject { $0["code"] != nil }
    do {
        let reply = try ShanyanReplyParser.parse(status: input.status, contentType: input.contentType, body: input.body)
        guard let document else { Invariant.fail("reply from a non-protocol answer: \(reply)") }
        Invariant.check((1...6).contains(reply.code.utf8.count) && reply.code.utf8.allSatisfy { (48...57).contains($0) }, "code \(reply.code)")
        if reply.charged {
            let charge = document["chargeStatus"]
            Invariant.check(charge == .number("1") || charge == .string("1") || charge.map { if case .number(let text) = $0 { Double(text) == 1 } else { false } } == true,
                            "charged from \(String(describing: charge))")
        }
        if let tradeNo = reply.tradeNo {
            Invariant.check((1...64).contains(tradeNo.utf8.count) && tradeNo.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2D || byte == 0x5F
            }, "tradeNo \(tradeNo)")
        }
    } catch {
        checkReplyError(error, parser: "shanyan")
    }
    return 0
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzShanyanReply_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzShanyanReply)
}
