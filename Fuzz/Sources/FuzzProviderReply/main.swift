import FuzzSupport
import Foundation
import PassgateCore
import PassgateFuzzing
import PassgateProviders

// Fuzzes one registered provider's replies through the reply-fuzz host (PassgateFuzzing's
// ReplyFuzzHost): each input is a ReplyInput (first byte status and Content-Type, then the body)
// answering the calls the provider prepared, read by its own interpret, checked by the host's
// generic invariants and the provider's own (its +Fuzz.swift). PASSGATE_FUZZ_PROVIDER names the
// provider; `--list-providers` prints the ids there are, one a line, for Fuzz/run.

/// The provider under test, made once by `entryPoint` before any input: an unknown id or one
/// without a fuzz entry stops the run with the reason. A variable only so that it can be dropped at
/// exit (`releaseHost`). libFuzzer runs inputs on one thread, after `entryPoint` set it and before
/// the exit handlers run, so no access races: hence `nonisolated(unsafe)`.
nonisolated(unsafe) private var host: ReplyFuzzHost?

private func makeHost() -> ReplyFuzzHost {
    guard let id = ProcessInfo.processInfo.environment["PASSGATE_FUZZ_PROVIDER"], !id.isEmpty else {
        Invariant.fail("set PASSGATE_FUZZ_PROVIDER to one of: \(ReplyFuzzHost.providerIDs(in: .builtIn).joined(separator: ", "))")
    }
    do {
        return try ReplyFuzzHost(registry: .builtIn, id: id, checkRedaction: fuzzSwitch("PASSGATE_FUZZ_REDACTION", default: true))
    } catch {
        Invariant.fail("PASSGATE_FUZZ_PROVIDER: \(error)")
    }
}

/// Drops the host before LeakSanitizer's exit check (registered earlier, so run later): its
/// prepared calls hold runtime-made Strings whose tagged pointers LeakSanitizer cannot follow from
/// a global, so it would report them as leaked.
private func releaseHost() { host = nil }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderReply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let host else { Invariant.fail("LLVMFuzzerTestOneInput ran before FuzzProviderReply_main made the host") }
    let input = fuzzInput(data, size)
    if let problem = host.check(input).first { Invariant.fail("\(host.provider.id): \(problem)") }
    return 0
}

/// The executable's entry point: `--list-providers`, else libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzProviderReply_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if argc == 2, let argument = argv?[1], String(cString: argument) == "--list-providers" {
        print(ReplyFuzzHost.providerIDs(in: .builtIn).joined(separator: "\n"))
        return 0
    }
    host = makeHost()  // an unusable PASSGATE_FUZZ_PROVIDER fails here, not at the first input
    atexit { releaseHost() }
    return runFuzzer(argc, argv, fuzzProviderReply)
}
