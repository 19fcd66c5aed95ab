import EventLoopExecution
import Foundation
import FuzzSupport
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded

// Fuzzes the API's HTTP/1.1 channel with raw bytes from a client, as the listener would get them:
// NIO's request decoder and the dispatch handler (pipelining, keep-alive, bodies and their limit,
// Expect: 100-continue, malformed HTTP) on an EmbeddedChannel, with a trivial responder.
//
// The first byte chooses how the rest arrives: 0 in one read, n in reads of n bytes each, so that
// a request split anywhere (inside a header, a chunk size, between pipelined requests) is tried.
// After the last read the channel is closed (the client leaves) and the loop run until idle.
// Invariants: nothing crashes or hangs; every byte the channel writes belongs to HTTP/1.1 answers.
//
// Only HTTP1DispatchChannel's public API is used (init, setup(channel:logger:)): the handler's
// internals may change without this target noticing.

/// Bodies are collected up to this; longer ones are read and dropped (the responder sees the error).
private let maxBodyBytes = 2048

/// Every request runs on the channel's own (embedded) loop: the limit is never reached, so no job
/// goes to Swift's pool and the whole exchange happens on this thread, inside `run()`.
private let dispatch = HTTP1DispatchChannel(
    requestsOnEventLoop: Int.max / 2,
    configuration: .init(maxRequestBodyBytes: { maxBodyBytes }, serverName: "fuzz")
) { request, _ in
    // Reads the body as a route would, and answers what it got.
    let text: String
    do {
        text = "\(request.method) \(request.uri.path) \(try await request.body.collect(upTo: maxBodyBytes).readableBytes)"
    } catch {
        text = "body refused"
    }
    return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}

private let logger = Logger(label: "passgate.fuzz") { _ in SwiftLogNoOpLogHandler() }
/// Writes what the channel answered to stderr, for a human replaying an input. Off by default.
private let showAnswers = fuzzSwitch("PASSGATE_FUZZ_SHOW_ANSWERS", default: false)
private let statusLinePrefix = Array("HTTP/1.1 ".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let split = input.first else { return 0 }
    let bytes = input.dropFirst()
    let readSize = split == 0 ? max(bytes.count, 1) : Int(split)

    let channel = EmbeddedChannel()
    let loop = channel.embeddedEventLoop
    do {
        _ = try dispatch.setup(channel: channel, logger: logger).wait()  // completed at once on an embedded loop
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
    } catch {
        Invariant.fail("cannot set up the channel: \(error)")
    }

    var written: [UInt8] = []
    func drain() {
        loop.run()
        while let buffer = try? channel.readOutbound(as: ByteBuffer.self) {
            written.append(contentsOf: buffer.readableBytesView)
        }
    }
    var offset = bytes.startIndex
    while offset < bytes.endIndex, channel.isActive {
        let end = min(offset + readSize, bytes.endIndex)
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<end]))
        } catch {
            // A decoder error reaches the end of the pipeline after the handler has answered it
            // (400) and closed the connection: the client's next bytes have nowhere to go.
        }
        offset = end
        drain()
    }
    channel.close(promise: nil)
    drain()
    _ = try? channel.finish(acceptAlreadyClosed: true)
    drain()

    if showAnswers { FileHandle.standardError.write(Data(written)) }
    Invariant.check(
        written.isEmpty || written.starts(with: statusLinePrefix),
        "the channel wrote bytes that do not start an HTTP/1.1 answer: \(String(decoding: written.prefix(80), as: UTF8.self))")
    return 0
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzHTTPRequest_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzHTTPRequest)
}
