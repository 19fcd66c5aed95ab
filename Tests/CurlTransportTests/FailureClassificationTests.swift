import CurlTransport
import PassgateTestSupport
import Testing

/// Each failure produced for real on loopback, then checked for kind and delivery.
@Suite("Failure classification against real sockets")
struct FailureClassificationTests {
    @Test("closed port is classified as connection refused and not sent")
    func closedPort() async throws {
        let port = try ProcessInfoHelpers.closedPort()
        try await withClient { client in
            let error = await transportError { try await client.send(.init(url: "http://127.0.0.1:\(port)/x")) }
            #expect(error?.kind == .connectionRefused)
            #expect(error?.delivery == .notSent)
            #expect(error?.curlCode == 7)
            #expect(error?.host == "127.0.0.1")
        }
    }

    @Test("unresolvable host is classified as DNS failure and not sent")
    func dnsFailure() async throws {
        try await withClient { client in
            let error = await transportError { try await client.send(.init(url: "http://nonexistent.invalid/x")) }
            #expect(error?.kind == .dnsFailure)
            #expect(error?.delivery == .notSent)
            #expect(error?.curlCode == 6)
            #expect(error?.host == "nonexistent.invalid")
        }
    }

    @Test("server that accepts and never answers times out after send and may have been delivered", .timeLimit(.minutes(1)))
    func silentServerTimesOutAfterSend() async throws {
        let server = try await SilentServer.start()
        let configuration = CurlHTTPClient.Configuration(connectTimeoutMs: 1_000, timeoutMs: 300)
        try await withClient(configuration) { client in
            let error = await transportError { try await client.send(.init(url: "http://127.0.0.1:\(server.port)/x")) }
            #expect(error?.kind == .timeoutAfterSend)
            #expect(error?.delivery == .mayHaveBeenDelivered)
            #expect(error?.curlCode == 28)  // not hanging is the point: the time limit
        }
        await server.close()
    }

    @Test("full accept queue (SYN dropped) is classified as connect timeout and not sent")
    func connectTimeoutOnFullBacklog() async throws {
        let listener = try FullBacklogListener()
        let configuration = CurlHTTPClient.Configuration(connectTimeoutMs: 300, timeoutMs: 10_000)
        try await withClient(configuration) { client in
            let start = ContinuousClock.now
            let error = await transportError { try await client.send(.init(url: "http://127.0.0.1:\(listener.port)/x")) }
            #expect(error?.kind == .connectTimeout)
            #expect(error?.delivery == .notSent)
            // The 300 ms connect timeout fired, not the 10 s total one. curl's own figure, because the
            // wall clock here also counts resuming this task on a busy 2-thread cooperative pool.
            let text = error?.curlErrorText ?? ""
            let curlMs = text.firstMatch(of: /after (\d+) ms/).flatMap { Int($0.1) }
            #expect(curlMs.map { $0 >= 300 && $0 < 2_000 } == true, "curl said: \(text)")
            _ = start
        }
        withExtendedLifetime(listener) {}
    }

    @Test("TLS handshake that never completes is a connect timeout and not sent, though TCP was up")
    func stalledTLSHandshakeIsNotSent() async throws {
        let server = try await SilentServer.start()
        let configuration = CurlHTTPClient.Configuration(connectTimeoutMs: 300, timeoutMs: 2_000)
        try await withClient(configuration) { client in
            let error = await transportError { try await client.send(.init(url: "https://127.0.0.1:\(server.port)/x")) }
            #expect(error?.kind == .connectTimeout)
            #expect(error?.delivery == .notSent)
            // The TCP connection was up: the server accepted it (NIO may take a moment to notice).
            #expect(await eventually { server.stats.snapshot.accepted == 1 })
        }
        await server.close()
    }

    @Test("server that resets the connection mid-response is connection reset and may have been delivered")
    func resetMidResponse() async throws {
        try await withServerAndClient { server, client in
            let error = await transportError { try await client.send(.init(url: server.url("/reset"))) }
            #expect(error?.kind == .connectionReset)
            #expect(error?.delivery == .mayHaveBeenDelivered)
            #expect(error.map { [56, 18].contains($0.curlCode ?? 0) } == true)
            #expect(server.stats.snapshot.requests == 1)
        }
    }

    @Test("body over maxResponseBytes is response too large, with Content-Length or chunked")
    func oversizedBody() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.maxResponseBytes = 4_096
        try await withServerAndClient(configuration) { server, client in
            let declared = await transportError { try await client.send(.init(url: server.url("/bytes/10000"))) }
            #expect(declared?.kind == .responseTooLarge)
            #expect(declared?.delivery == .mayHaveBeenDelivered)
            #expect(declared?.curlCode == 63)

            let chunked = await transportError { try await client.send(.init(url: server.url("/chunked/10000"))) }
            #expect(chunked?.kind == .responseTooLarge)
            #expect(chunked?.delivery == .mayHaveBeenDelivered)
            #expect(chunked?.curlCode == 23)

            let exact = try await client.send(.init(url: server.url("/bytes/4096")))
            #expect(exact.body.count == 4_096)
        }
    }

    @Test("errors carry a message, the curl code and text, and a label-safe short description")
    func errorDescription() async throws {
        let port = try ProcessInfoHelpers.closedPort()
        try await withClient { client in
            let error = try #require(await transportError { try await client.send(.init(url: "http://127.0.0.1:\(port)/")) })
            #expect(error.shortDescription == "connection_refused")
            #expect(error.message.contains("127.0.0.1"))
            #expect(error.curlErrorText?.isEmpty == false)
            #expect(error.description.contains("[curl 7"))
            #expect(!error.mayHaveBeenDelivered)
        }
    }
}

@Suite("Proxy")
struct ProxyTests {
    @Test("plain HTTP requests go through the configured proxy")
    func plainHTTPUsesProxy() async throws {
        let proxy = try await TestHTTPServer.start()
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.proxy = proxy.url("")
        try await withClient(configuration) { client in
            // The test server is no real proxy: it answers the absolute-form request with 404.
            let response = try await client.send(.init(url: "http://origin.invalid/status/200"))
            #expect(response.status == 404)
            #expect(proxy.stats.snapshot.requests == 1)
        }
        await proxy.close()
    }

    @Test("a proxy that refuses the CONNECT tunnel is a proxy failure and not sent")
    func tunnelRefused() async throws {
        let proxy = try await TestHTTPServer.start()
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.proxy = proxy.url("")
        try await withClient(configuration) { client in
            let error = await transportError { try await client.send(.init(url: "https://origin.invalid/x")) }
            #expect(error?.kind == .proxyFailed)
            #expect(error?.delivery == .notSent)
            #expect(proxy.stats.snapshot.requests == 1)
        }
        await proxy.close()
    }

    @Test("an unreachable proxy is a proxy failure and not sent")
    func proxyDown() async throws {
        var configuration = CurlHTTPClient.Configuration.forTests
        configuration.proxy = "http://127.0.0.1:\(try ProcessInfoHelpers.closedPort())"
        try await withClient(configuration) { client in
            let error = await transportError { try await client.send(.init(url: "https://origin.invalid/x")) }
            #expect(error?.kind == .proxyFailed)
            #expect(error?.delivery == .notSent)
        }
    }
}
