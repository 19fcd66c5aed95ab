import CurlTransport
import Testing

/// Runs `body` against a fresh `openssl s_server` with a self-signed certificate, then kills it.
private func withTLSServer(
    requireClientCertificate: Bool = false, _ body: (OpenSSLTestServer) async throws -> Void
) async throws {
    let server = try await OpenSSLTestServer.start(requireClientCertificate: requireClientCertificate)
    do {
        try await body(server)
        await server.stop()
    } catch {
        await server.stop()
        throw error
    }
}

@Suite("TLS verification")
struct TLSTests {
    @Test("self-signed server certificate is rejected without its CA and not sent")
    func selfSignedRejected() async throws {
        try await withTLSServer { server in
            try await withClient { client in
                let error = await transportError { try await client.send(.init(url: "https://127.0.0.1:\(server.port)/")) }
                #expect(error?.kind == .tlsCertificateRejected)
                #expect(error?.delivery == .notSent)
                #expect(error?.curlCode == 60)
            }
        }
    }

    @Test("self-signed server certificate is accepted with caFile pointing at it, by IP and by name")
    func acceptedWithCAFile() async throws {
        try await withTLSServer { server in
            var configuration = CurlHTTPClient.Configuration.forTests
            configuration.caFile = server.certificateFile
            try await withClient(configuration) { client in
                for host in ["127.0.0.1", "localhost"] {
                    let response = try await client.send(.init(url: "https://\(host):\(server.port)/"))
                    #expect(response.status == 200)
                    #expect(response.bodyText.contains("<HTML>"))
                }
            }
        }
    }

    @Test("a request's own caFile is used for it alone: one client serves providers that pin different CAs")
    func perRequestCAFile() async throws {
        try await withTLSServer { server in
            try await withClient { client in
                let url = "https://127.0.0.1:\(server.port)/"
                let pinned = try await client.send(.init(url: url, caFile: server.certificateFile))
                #expect(pinned.status == 200)
                // The next request without the override is checked against the client's own trust again.
                let error = await transportError { try await client.send(.init(url: url)) }
                #expect(error?.kind == .tlsCertificateRejected && error?.delivery == .notSent)
            }
        }
    }

    @Test("a request's own proxy is used for it alone: a refused proxy fails it unsent, the next request goes direct")
    func perRequestProxy() async throws {
        try await withTLSServer { server in
            try await withClient { client in
                let url = "https://127.0.0.1:\(server.port)/"
                let refused = try ProcessInfoHelpers.closedPort()
                let error = await transportError {
                    try await client.send(.init(url: url, caFile: server.certificateFile, proxy: "http://127.0.0.1:\(refused)"))
                }
                #expect(error?.delivery == .notSent, "\(String(describing: error))")
                #expect(try await client.send(.init(url: url, caFile: server.certificateFile)).status == 200)
            }
        }
    }

    @Test("an unreadable caFile is a TLS configuration error and not sent")
    func missingCAFile() async throws {
        try await withTLSServer { server in
            var configuration = CurlHTTPClient.Configuration.forTests
            configuration.caFile = "/nonexistent/ca.pem"
            try await withClient(configuration) { client in
                let error = await transportError { try await client.send(.init(url: "https://127.0.0.1:\(server.port)/")) }
                #expect(error?.kind == .tlsConfigurationInvalid)
                #expect(error?.delivery == .notSent)
            }
        }
    }

    @Test("mutual TLS: the server accepts the configured client certificate and key")
    func mutualTLS() async throws {
        try await withTLSServer(requireClientCertificate: true) { server in
            var configuration = CurlHTTPClient.Configuration.forTests
            configuration.caFile = server.certificateFile
            configuration.clientCertificateFile = server.certificateFile
            configuration.clientKeyFile = server.keyFile
            try await withClient(configuration) { client in
                let response = try await client.send(.init(url: "https://127.0.0.1:\(server.port)/"))
                #expect(response.status == 200)
                #expect(response.bodyText.contains("<HTML>"))
            }
        }
    }

    @Test("mutual TLS: without a client certificate the refusal is a TLS failure, reported conservatively under TLS 1.3")
    func mutualTLSWithoutClientCertificate() async throws {
        try await withTLSServer(requireClientCertificate: true) { server in
            var configuration = CurlHTTPClient.Configuration.forTests
            configuration.caFile = server.certificateFile
            try await withClient(configuration) { client in
                let error = await transportError { try await client.send(.init(url: "https://127.0.0.1:\(server.port)/")) }
                // TLS 1.3 finishes the client's side of the handshake before the server checks the
                // client certificate, so the refusal arrives as an alert after curl may already
                // have written the request (curl 56): the kind says TLS, the delivery stays honest.
                #expect(error?.kind == .tlsHandshakeFailed)
                #expect(error?.curlCode == 56)
                #expect(error?.delivery == .mayHaveBeenDelivered)
                #expect(error?.curlErrorText?.contains("certificate required") == true)
            }
        }
    }
}
