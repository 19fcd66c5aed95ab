import CCurl
import PassgateCore

extension CurlTransfer {
    /// Why configuring the easy handle failed.
    struct SetupProblem {
        let kind: CurlTransportError.Kind
        let message: String
    }

    /// Sets the `CURLOPT_*` options for this request; `nil` on success. On a handle that kept
    /// `profile`'s options from its last transfer (`reused`), only this transfer's own: the
    /// pointers to it, the URL, the timeouts, the body and the header list (``EasyHandlePool``).
    func applyOptions(
        _ configuration: CurlHTTPClient.Configuration, profile: EasyHandlePool.Profile, reused: Bool
    ) -> SetupProblem? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var failed: [String] = []
        func check(_ code: CURLcode, _ name: String) {
            if code != CURLE_OK { failed.append("\(name) (curl \(code.rawValue))") }
        }

        check(CCurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, context), "PRIVATE")
        check(CCurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), "ERRORBUFFER")
        check(CCurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context), "WRITEDATA")
        check(CCurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context), "HEADERDATA")
        if CCurl_easy_setopt_string(easy, CURLOPT_URL, request.url) != CURLE_OK {
            return SetupProblem(kind: .invalidRequest, message: "libcurl rejected the URL (too long or malformed)")
        }
        check(CCurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, connectTimeoutMs)), "CONNECTTIMEOUT_MS")
        check(CCurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, timeoutMs)), "TIMEOUT_MS")
        if !reused {
            applyKeptOptions(configuration, check: check)
            if let problem = applyTLSOptions(configuration, profile: profile, check: check) { return problem }
            applyMethod(check: check)
        }
        applyBody(check: check)
        if let problem = applyHeaders(configuration, check: check) { return problem }
        guard failed.isEmpty else {
            return SetupProblem(kind: .internalError, message: "libcurl refused options: \(failed.joined(separator: ", "))")
        }
        return nil
    }

    /// The options that are the same for every transfer of this engine.
    private func applyKeptOptions(_ configuration: CurlHTTPClient.Configuration, check: (CURLcode, String) -> Void) {
        // Signals are process-wide and the engine thread is not the only thread: never let curl use them.
        check(CCurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        check(CCurl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlTransferBodyCallback), "WRITEFUNCTION")
        check(CCurl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlTransferHeaderCallback), "HEADERFUNCTION")
        // file://, ftp:// and friends would turn a config typo into a local file read.
        check(CCurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR")
        check(CCurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0), "FOLLOWLOCATION")
        // Rejects a declared Content-Length over the cap before the body is read; chunked bodies
        // are caught by the write callback.
        check(CCurl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseBytes)), "MAXFILESIZE_LARGE")
        check(CCurl_easy_setopt_long(easy, CURLOPT_MAXAGE_CONN, max(1, configuration.maxIdleConnectionSeconds)), "MAXAGE_CONN")
        check(CCurl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1), "TCP_KEEPALIVE")
        // HTTP/2 when the server offers it over TLS; fails harmlessly if curl lacks nghttp2.
        _ = CCurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Through a proxy the User-Agent goes in curl's option, which curl also sends in the
        // proxy's CONNECT; straight to the server it is a line of the header list
        // (``applyHeaders(_:check:)``), which spares curl formatting the line for every transfer.
        if viaProxy {
            check(CCurl_easy_setopt_string(easy, CURLOPT_USERAGENT, configuration.userAgent), "USERAGENT")
        }
    }

    private func applyTLSOptions(
        _ configuration: CurlHTTPClient.Configuration, profile: EasyHandlePool.Profile, check: (CURLcode, String) -> Void
    ) -> SetupProblem? {
        // Verification is not configurable on purpose (see Configuration).
        check(CCurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1), "SSL_VERIFYPEER")
        check(CCurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2), "SSL_VERIFYHOST")
        check(CCurl_easy_setopt_long(easy, CURLOPT_PROXY_SSL_VERIFYPEER, 1), "PROXY_SSL_VERIFYPEER")
        check(CCurl_easy_setopt_long(easy, CURLOPT_PROXY_SSL_VERIFYHOST, 2), "PROXY_SSL_VERIFYHOST")
        check(CCurl_easy_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)), "SSLVERSION")
        if let caFile = profile.caFile {
            check(CCurl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile), "CAINFO")
        }
        if let caPath = configuration.caPath {
            check(CCurl_easy_setopt_string(easy, CURLOPT_CAPATH, caPath), "CAPATH")
        }
        if let certificate = configuration.clientCertificateFile {
            check(CCurl_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate), "SSLCERT")
        }
        if let key = configuration.clientKeyFile {
            check(CCurl_easy_setopt_string(easy, CURLOPT_SSLKEY, key), "SSLKEY")
        }
        // An empty proxy string also stops curl from honouring http_proxy/https_proxy variables,
        // so the egress path is exactly what the configuration says.
        if CCurl_easy_setopt_string(easy, CURLOPT_PROXY, profile.proxy) != CURLE_OK {
            return SetupProblem(kind: .proxyFailed, message: "libcurl rejected the proxy URL; check `proxy`")
        }
        return nil
    }

    /// The method's options; kept with the handle (the method is part of its profile).
    private func applyMethod(check: (CURLcode, String) -> Void) {
        let method = request.method
        if method == .head {
            check(CCurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1), "NOBODY")
        } else if method == .get && request.body.isEmpty {
            check(CCurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1), "HTTPGET")
        } else {
            if method != .post {
                check(CCurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method.rawValue), "CUSTOMREQUEST")
            }
            if method == .post || !request.body.isEmpty {
                check(CCurl_easy_setopt_long(easy, CURLOPT_POST, 1), "POST")
            }
        }
    }

    /// This transfer's body, when its method sends one (``applyMethod(check:)``).
    private func applyBody(check: (CURLcode, String) -> Void) {
        let body = request.body
        guard request.method != .head, request.method == .post || !body.isEmpty else { return }
        check(CCurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "POSTFIELDSIZE_LARGE")
        // COPYPOSTFIELDS: curl keeps its own copy, so the body's storage need not outlive this call.
        let code = body.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return CCurl_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                CCurl_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, $0)
            }
        }
        check(code, "COPYPOSTFIELDS")
    }

    /// The request's header lines, then `User-Agent` (unless the request has one, or a proxy
    /// carries it: ``applyKeptOptions(_:check:)``) and an empty `Expect` (unless the request has one).
    private func applyHeaders(_ configuration: CurlHTTPClient.Configuration, check: (CURLcode, String) -> Void) -> SetupProblem? {
        var list: UnsafeMutablePointer<curl_slist>?
        var hasExpect = false
        var hasUserAgent = viaProxy
        // Each line is assembled in stack memory that curl copies: an interpolated `String` per
        // line cost about as much as curl's own copy and the rest of this function together.
        func append(_ name: String, _ separator: StaticString, _ value: String) -> Bool {
            var name = name, value = value
            let count = name.utf8.count + separator.utf8CodeUnitCount + value.utf8.count
            let appended = withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { line in
                let start = UnsafeMutableRawPointer(line.baseAddress!)
                var at = 0
                func copy(_ part: UnsafeRawBufferPointer) {
                    if let source = part.baseAddress { (start + at).copyMemory(from: source, byteCount: part.count) }
                    at += part.count
                }
                name.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
                copy(UnsafeRawBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
                value.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
                line[at] = 0
                return curl_slist_append(list, line.baseAddress)
            }
            guard let appended else {
                curl_slist_free_all(list)
                return false
            }
            list = appended
            return true
        }
        for (name, value) in request.headers {
            hasExpect = hasExpect || ASCIICase.equals(name, lowercased: "expect")
            hasUserAgent = hasUserAgent || ASCIICase.equals(name, lowercased: "user-agent")
            // "Name;" is curl's spelling for a header with an empty value ("Name:" would remove it).
            guard value.isEmpty ? append(name, ";", "") : append(name, ": ", value) else { return Self.outOfMemory }
        }
        if !hasUserAgent, !configuration.userAgent.isEmpty {
            guard append("User-Agent", ": ", configuration.userAgent) else { return Self.outOfMemory }
        }
        // No "Expect: 100-continue" round trip before larger bodies: it only adds latency.
        if !hasExpect {
            guard append("Expect", ":", "") else { return Self.outOfMemory }
        }
        headerList = list
        check(CCurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list), "HTTPHEADER")
        return nil
    }

    private static let outOfMemory = SetupProblem(kind: .internalError, message: "curl_slist_append failed (out of memory?)")
}
