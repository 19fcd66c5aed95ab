import CCurl
import PassgateCore

/// One request on its way through libcurl, confined to the engine thread: created there, fed by
/// libcurl's callbacks there (curl calls them from inside `curl_multi_perform`), destroyed there.
///
/// It owns the easy handle, the header list and the error buffer, which must all outlive the
/// transfer; `deinit` frees them once the handle is off the multi handle.
final class CurlTransfer {
    let id: UInt64
    let continuation: CheckedContinuation<CurlHTTPClient.Response, any Error>
    let request: CurlHTTPClient.Request
    let host: String?
    let usesTLS: Bool
    let easy: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headerList: UnsafeMutablePointer<curl_slist>?
    let connectTimeoutMs: Int
    let timeoutMs: Int
    /// ``CurlHTTPClient/Configuration/watchdogDeadlineShiftMs``.
    let watchdogShiftMs: Int
    let maxResponseBytes: Int
    let viaProxy: Bool
    /// Where `easy` goes when this transfer is released.
    let handles: EasyHandlePool
    /// What `easy`'s kept options are set for once ``applyOptions(_:profile:reused:)`` succeeded; `nil`
    /// before, or when it failed part way (the pool then resets the handle).
    var profile: EasyHandlePool.Profile?
    let startedAt: ContinuousClock.Instant
    /// Times the transfer (``CurlHTTPClient/Configuration/clock``).
    let clock: any PassgateClock
    /// The multi handle it runs on (``CurlShardPicker``), set when it is added.
    var shard = 0

    var responseHeaders: [(name: String, value: String)] = []
    var responseBody: [UInt8] = []
    var responseCapExceeded = false

    /// `proxy`: the one the transfer goes through, from its handle profile (empty: none).
    private init(
        submission: CurlEngine.Submission, host: String?, easy: UnsafeMutableRawPointer,
        handles: EasyHandlePool, configuration: CurlHTTPClient.Configuration, proxy: String
    ) {
        self.handles = handles
        self.clock = configuration.clock
        self.startedAt = configuration.clock.monotonicNow()
        self.id = submission.id
        self.continuation = submission.continuation
        self.request = submission.request
        self.host = host
        self.usesTLS = ASCIICase.hasPrefix(submission.request.url, lowercased: "https:")
        self.easy = easy
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        self.connectTimeoutMs = submission.request.connectTimeoutMs ?? configuration.connectTimeoutMs
        self.timeoutMs = submission.request.timeoutMs ?? configuration.timeoutMs
        self.watchdogShiftMs = configuration.watchdogDeadlineShiftMs
        self.maxResponseBytes = configuration.maxResponseBytes
        self.viaProxy = !proxy.isEmpty
    }

    deinit {
        // The handle is off the multi handle by now (every path removes it first); the pool drops
        // its pointers to this transfer's header list, error buffer and callback context.
        handles.recycle(easy, profile: profile)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// A configured transfer ready for `curl_multi_add_handle`, or why the request cannot run.
    static func make(
        _ submission: CurlEngine.Submission, configuration: CurlHTTPClient.Configuration, handles: EasyHandlePool
    ) -> Result<CurlTransfer, CurlTransportError> {
        let host = submission.request.host
        if let problem = submission.request.validationProblem {
            return .failure(
                CurlTransportError(kind: .invalidRequest, delivery: .notSent, message: "invalid request: \(problem)", host: host))
        }
        let request = submission.request
        let profile = EasyHandlePool.Profile(
            caFile: request.caFile ?? configuration.caFile, proxy: request.proxy ?? configuration.proxy ?? "",
            method: request.method, hasBody: !request.body.isEmpty)
        guard let handle = handles.take(for: profile) else {
            return .failure(
                CurlTransportError(kind: .internalError, delivery: .notSent, message: "curl_easy_init failed (out of memory?)", host: host))
        }
        let transfer = CurlTransfer(
            submission: submission, host: host, easy: handle.easy, handles: handles, configuration: configuration,
            proxy: profile.proxy)
        if let problem = transfer.applyOptions(configuration, profile: profile, reused: handle.profile != nil) {
            return .failure(CurlTransportError(kind: problem.kind, delivery: .notSent, message: problem.message, host: host))
        }
        transfer.profile = profile
        return .success(transfer)
    }

    /// The transfer behind an easy handle that came back from `curl_multi_info_read`.
    static func owner(of easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        var context: UnsafeMutableRawPointer?
        guard CCurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { return nil }
        // Unretained: the engine's `active` table holds the only strong reference.
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    }

    // MARK: Callbacks (engine thread, inside curl_multi_perform)

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if responseBody.count + bytes.count > maxResponseBytes {
            responseCapExceeded = true
            return 0  // anything but bytes.count makes curl abort with CURLE_WRITE_ERROR
        }
        responseBody.append(contentsOf: bytes)
        return bytes.count
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Over bytes, not Characters: as a String "\r\n" is one Character and would not match
        // "\r", and Character-level slicing would run for every header line of every call.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 13 || bytes[end - 1] == 10 { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        if line.starts(with: "HTTP/".utf8) {
            // A new status line: an interim 1xx response came first, forget its headers.
            responseHeaders.removeAll()
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            var start = colon + 1, stop = line.count
            while start < stop, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
            while stop > start, line[stop - 1] == 0x20 || line[stop - 1] == 0x09 { stop -= 1 }
            responseHeaders.append((
                name: String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self),
                value: String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<stop]), as: UTF8.self)
            ))
        }
        return bytes.count
    }
}

/// `CURLOPT_WRITEFUNCTION`: a file-scope function because C function pointers cannot capture.
func curlTransferBodyCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// `CURLOPT_HEADERFUNCTION`: called once per header line, status line included.
func curlTransferHeaderCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}
