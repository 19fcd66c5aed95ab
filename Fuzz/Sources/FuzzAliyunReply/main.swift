import FuzzSupport
import PassgateCore
import ProviderAliyun

// Fuzzes AliyunReplyParser with a ReplyInput (first byte status and Content-Type, then the body).
// Invariants: a reply or a PassgateError of the reply layer without 7+ digit runs
// (checkReplyError); a reply only from a non-HTML JSON object with a `Code`, 2xx or not (gateway
// refusals are 4xx answers); its code 1-64 letters, digits, '.', '_', '-' with no run of 7+ digits.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAliyunReply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input = ReplyInput(fuzzInput(data, size)) else { return 0 }
    let document = input.protocolObject { $0["Code"] != nil }
    do {
        let reply = try AliyunReplyParser.parse(status: input.status, contentType: input.contentType, body: input.body)
        guard document != nil else { Invariant.fail("reply from a non-protocol answer: \(reply)") }
        Invariant.check((1...64).contains(reply.code.utf8.count), "code length \(reply.code.utf8.count)")
        Invariant.check(longestDigitRun(reply.code) < 7, "code \(reply.code) could be a number")
        Invariant.check(reply.code.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }, "code \(reply.code)")
    } catch {
        checkReplyError(error, parser: "aliyun")
    }
    return 0
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzAliyunReply_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzAliyunReply)
}
