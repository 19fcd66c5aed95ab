import CCurl

extension CurlEventLoop {
    /// Lets this loop see the connection sockets curl opens and closes for `easy`'s transfers, so
    /// that idle ones can stay in the epoll set (``CurlSocketTable``). Call before the handle goes
    /// onto one of ``multis``; every time, because a handle the pool resets loses its options. A
    /// connection keeps the callbacks of the handle that opened it, and every connection lives in
    /// a multi handle this loop cleans up before it goes away.
    func adopt(_ easy: UnsafeMutableRawPointer) {
        #if os(Linux)
        guard case .sockets = mode else { return }
        let loop = Unmanaged.passUnretained(self).toOpaque()
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_SOCKOPTDATA, loop)
        _ = CCurl_easy_setopt_sockopt_callback(easy) { pointer, fd, purpose in
            if let pointer, purpose == CURLSOCKTYPE_IPCXN {
                Unmanaged<CurlEventLoop>.fromOpaque(pointer).takeUnretainedValue().sockets.opened(Int32(fd))
            }
            return Int32(CURL_SOCKOPT_OK)
        }
        _ = CCurl_easy_setopt_pointer(easy, CURLOPT_CLOSESOCKETDATA, loop)
        _ = CCurl_easy_setopt_closesocket_callback(easy) { pointer, fd in
            if let pointer {
                Unmanaged<CurlEventLoop>.fromOpaque(pointer).takeUnretainedValue().sockets.closed(Int32(fd))
            }
            return CCurl_close(Int32(fd))
        }
        #endif
    }
}
