import PassgateCore
import CCurl
import CoreMetrics

extension CurlTransfer {
    /// Turns curl's verdict into the caller's answer and records the per-transfer metrics.
    /// Call only after the handle has been removed from the multi handle.
    func finish(code: Int, metrics: CurlTransportMetrics) -> CurlEngine.Finished {
        let newConnections = longInfo(CURLINFO_NUM_CONNECTS)
        metrics.duration.recordNanoseconds(elapsedNanoseconds)
        metrics.connectionsOpened.increment(by: newConnections)
        guard code == Int(CURLE_OK.rawValue) else {
            let facts = self.facts(code: code)
            if facts.newConnections == 0 && facts.localPort > 0 { metrics.connectionsReused.increment() }
            return finished(.failure(.classify(facts)))
        }
        if newConnections == 0 { metrics.connectionsReused.increment() }
        let response = CurlHTTPClient.Response(
            status: longInfo(CURLINFO_RESPONSE_CODE),
            headers: responseHeaders,
            body: responseBody,
            httpVersion: httpVersion,
            connectionReused: newConnections == 0,
            totalTime: .microseconds(offInfo(CURLINFO_TOTAL_TIME_T)),
            connectTime: .microseconds(offInfo(CURLINFO_CONNECT_TIME_T))
        )
        return finished(.success(response))
    }

    /// The caller's task was cancelled while the transfer was on the multi handle.
    func finishCancelled(metrics: CurlTransportMetrics) -> CurlEngine.Finished {
        metrics.duration.recordNanoseconds(elapsedNanoseconds)
        return finished(.failure(.cancelled(host: host, facts: facts(code: Int(CURLE_OK.rawValue)))))
    }

    /// The shutdown deadline passed while the transfer was on the multi handle.
    func finishShutdown(metrics: CurlTransportMetrics) -> CurlEngine.Finished {
        metrics.duration.recordNanoseconds(elapsedNanoseconds)
        return finished(.failure(.shutdown(host: host, facts: facts(code: Int(CURLE_OK.rawValue)))))
    }

    /// Everything the classifier needs, read while the easy handle is still alive.
    func facts(code: Int) -> CurlTransferFacts {
        var facts = CurlTransferFacts(
            code: code,
            errorText: String(cString: errorBuffer),
            host: host,
            usesTLS: usesTLS
        )
        facts.connectTimeMicros = offInfo(CURLINFO_CONNECT_TIME_T)
        facts.appConnectTimeMicros = offInfo(CURLINFO_APPCONNECT_TIME_T)
        facts.pretransferTimeMicros = offInfo(CURLINFO_PRETRANSFER_TIME_T)
        facts.newConnections = longInfo(CURLINFO_NUM_CONNECTS)
        facts.localPort = longInfo(CURLINFO_LOCAL_PORT)
        facts.responseCapExceeded = responseCapExceeded
        facts.connectTimeoutMs = connectTimeoutMs
        facts.timeoutMs = timeoutMs
        facts.maxResponseBytes = maxResponseBytes
        facts.viaProxy = viaProxy
        return facts
    }

    private var httpVersion: CurlHTTPClient.HTTPVersion {
        switch longInfo(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): .http1_0
        case Int(CURL_HTTP_VERSION_1_1): .http1_1
        case Int(CURL_HTTP_VERSION_2_0): .http2
        case Int(CURL_HTTP_VERSION_3): .http3
        default: .unknown
        }
    }

    private var elapsedNanoseconds: Int64 {
        let elapsed = (clock.monotonicNow() - startedAt).components
        return elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
    }

    private func finished(_ result: Result<CurlHTTPClient.Response, CurlTransportError>) -> CurlEngine.Finished {
        CurlEngine.Finished(id: id, continuation: continuation, result: result)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return CCurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func offInfo(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return CCurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? Int64(value) : 0
    }
}
