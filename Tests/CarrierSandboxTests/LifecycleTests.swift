import PassgateCore
import PassgateProviders
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Testing

/// Start, run and shutdown, as a ServiceGroup or a CLI drives them.
@Suite("lifecycle")
struct LifecycleTests {
    @Test(.timeLimit(.minutes(1))) func shutdownReturnsPromptlyWhileANoAnswerRequestIsHeld() async throws {
        let patient = CurlHTTPClient.Configuration(connectTimeoutMs: 1000, timeoutMs: 20_000)
        try await withSandbox(client: patient, { $0.fault = .noAnswer }) { sandbox in
            let token = try sandbox.sandbox.mintToken(appId: Fixtures.md5AppId, phoneNumber: Fixtures.phone)
            let request = try sandbox.loginRequest(token: token)
            let call = Task { try await sandbox.post(CMCCLoginRequest.path, request.body) }
            for _ in 0..<300 where sandbox.sandbox.stats.loginCalls == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(sandbox.sandbox.stats.loginCalls == 1)
            await sandbox.sandbox.shutdown()  // the alternative is hanging forever: the time limit
            // The held connection is closed: the client gets a reset, not its 20 s timeout.
            let error = try await #require(throws: CurlTransportError.self) { try await call.value }
            #expect(error.kind == .connectionReset)
            #expect(error.delivery == .mayHaveBeenDelivered)
        }
    }

    @Test func runServesUntilCancelledThenClosesTheListener() async throws {
        let sandbox = CarrierSandbox(configuration: SandboxConfiguration(apps: Fixtures.apps, threads: 1), registry: .builtIn)
        let service = Task { try await sandbox.run() }
        var port: Int?
        for _ in 0..<200 where port == nil {
            port = sandbox.port
            try await Task.sleep(for: .milliseconds(10))
        }
        let url = "http://127.0.0.1:\(try #require(port))/sandbox/stats"
        let client = CurlHTTPClient(configuration: .init(connectTimeoutMs: 500, timeoutMs: 2000))
        #expect(try await client.send(.init(url: url)).status == 200)
        service.cancel()
        try await service.value
        await client.shutdown(gracePeriodMs: 0)
        // A client of its own: the first one's pooled connection was closed by the shutdown, and
        // a request on it fails with a reset rather than the refusal this test is about.
        let fresh = CurlHTTPClient(configuration: .init(connectTimeoutMs: 500, timeoutMs: 2000))
        let error = try await transportError { try await fresh.send(.init(url: url)) }
        #expect(error?.kind == .connectionRefused)
        await fresh.shutdown(gracePeriodMs: 0)
        await #expect(throws: SandboxError.self) { try await sandbox.start() }
    }

    @Test func startIsIdempotent() async throws {
        let sandbox = CarrierSandbox(configuration: SandboxConfiguration(apps: Fixtures.apps, threads: 1), registry: .builtIn)
        async let first = sandbox.start()
        async let second = sandbox.start()
        let ports = try await [first, second]
        #expect(ports[0] == ports[1])
        #expect(try await sandbox.start() == ports[0])
        #expect(sandbox.port == ports[0])
        await sandbox.shutdown()
        await sandbox.shutdown()
    }

    @Test func invalidConfigurationFailsToStart() async throws {
        let app = CMCCEmulator.app(appId: "300011111111")
        let sandbox = CarrierSandbox(configuration: SandboxConfiguration(apps: [app, app], tokenLifetimeSeconds: 0), registry: .builtIn)
        let error = try await #require(throws: SandboxError.self) { try await sandbox.start() }
        #expect(error.kind == .invalidConfiguration)
        #expect(error.message.contains("listed twice"))
        await sandbox.shutdown()
    }
}
