import CoreMetrics
import CurlTransport

/// Runs `body` with a fresh client and always shuts it down, so no engine thread outlives its test.
func withClient<T>(
    _ configuration: CurlHTTPClient.Configuration = CurlHTTPClient.Configuration.forTests,
    metrics: (any MetricsFactory)? = nil,
    _ body: (CurlHTTPClient) async throws -> T
) async throws -> T {
    let client = CurlHTTPClient(configuration: configuration, metricsFactory: metrics ?? NOOPMetricsHandler.instance)
    do {
        let result = try await body(client)
        await client.shutdown(gracePeriodMs: 0)
        return result
    } catch {
        await client.shutdown(gracePeriodMs: 0)
        throw error
    }
}

/// The ``CurlTransportError`` a call threw, or `nil` when it succeeded or threw something else.
func transportError(_ call: () async throws -> CurlHTTPClient.Response) async -> CurlTransportError? {
    do {
        _ = try await call()
        return nil
    } catch let error as CurlTransportError {
        return error
    } catch {
        return nil
    }
}

extension Duration {
    var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}

/// Runs `body` with a fresh ``TestHTTPServer`` and client; both are closed afterwards.
func withServerAndClient<T>(
    _ configuration: CurlHTTPClient.Configuration = CurlHTTPClient.Configuration.forTests,
    metrics: (any MetricsFactory)? = nil,
    _ body: (TestHTTPServer, CurlHTTPClient) async throws -> T
) async throws -> T {
    let server = try await TestHTTPServer.start()
    do {
        let result = try await withClient(configuration, metrics: metrics) { try await body(server, $0) }
        await server.close()
        return result
    } catch {
        await server.close()
        throw error
    }
}

extension CurlHTTPClient.Configuration {
    /// Defaults with generous timeouts: tests run in parallel on a 2-core machine, and only the
    /// tests about timeouts should ever time out.
    static var forTests: Self {
        CurlHTTPClient.Configuration(connectTimeoutMs: 5_000, timeoutMs: 15_000)
    }
}
