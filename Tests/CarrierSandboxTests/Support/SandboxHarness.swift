import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import PassgateProviders
import Testing

/// One sandbox on an ephemeral loopback port, its clock, and a libcurl client talking to it.
struct SandboxHarness {
    let sandbox: CarrierSandbox
    let client: CurlHTTPClient
    let clock: ManualClock
    let baseURL: String

    /// Sandbox "now" as the 17-digit Beijing time a caller would send.
    var beijingNow: String { BeijingTimestamp.string(milliseconds: clock.nowMilliseconds()) }

    /// POSTs JSON bytes to `path`.
    func post(_ path: String, _ body: [UInt8], timeoutMs: Int? = nil) async throws -> CurlHTTPClient.Response {
        try await send(.post, path, body, timeoutMs: timeoutMs)
    }

    func send(_ method: CurlHTTPClient.Method, _ path: String, _ body: [UInt8] = [], timeoutMs: Int? = nil) async throws -> CurlHTTPClient.Response {
        try await client.send(CurlHTTPClient.Request(
            method: method, url: baseURL + path, headers: [("Content-Type", "application/json")], body: body, timeoutMs: timeoutMs
        ))
    }

    /// Mints a token over HTTP, the way a demo or the benchmark does.
    func mint(appId: String = Fixtures.md5AppId, phone: String = Fixtures.phone, product: String = "login") async throws -> String {
        let response = try await post("/sandbox/tokens", json(["appId": appId, "phoneNumber": phone, "product": product]))
        try #require(response.status == 200, "mint failed: \(response.bodyText)")
        return try #require(try object(response.body)["token"] as? String)
    }

    /// A login request built and signed by ProviderCMCC, stamped with the sandbox clock.
    func loginRequest(
        token: String, appId: String = Fixtures.md5AppId, signing: CMCCLoginSigning = Fixtures.md5Signing,
        msgid: String = MessageID.make(), systemtime: String? = nil
    ) throws -> CMCCLoginRequest {
        try CMCCLoginRequest(appId: appId, token: token, signing: signing, msgid: msgid, systemtime: systemtime ?? beijingNow)
    }

    /// Sends a ProviderCMCC login request and parses the reply with ProviderCMCC's parser.
    func login(_ request: CMCCLoginRequest) async throws -> CMCCLoginReply {
        let response = try await post(CMCCLoginRequest.path, request.body)
        return try CMCCReplyParser.login(
            status: response.status, contentType: response.header("Content-Type"), body: response.body, expectedMsgid: request.msgid
        )
    }

    /// Mints (or takes) a token and exchanges it in MD5 mode.
    func login(token: String, appId: String = Fixtures.md5AppId, signing: CMCCLoginSigning = Fixtures.md5Signing) async throws -> CMCCLoginReply {
        try await login(loginRequest(token: token, appId: appId, signing: signing))
    }

    /// A number-verification request built and signed by ProviderCMCC.
    func verifyRequest(
        token: String, phone: String = Fixtures.phone, appId: String = Fixtures.md5AppId, appKey: String = Fixtures.appKey,
        msgId: String? = nil, timestamp: String? = nil
    ) throws -> CMCCVerifyRequest {
        try CMCCVerifyRequest(
            appId: appId, token: token, phoneNumber: phone, keying: .appKey(appKey),
            msgId: msgId ?? MessageID.make().uppercased(), timestamp: timestamp ?? beijingNow
        )
    }

    func verify(_ request: CMCCVerifyRequest) async throws -> CMCCVerifyReply {
        let response = try await post(CMCCVerifyRequest.path, request.body)
        return try CMCCReplyParser.verify(
            status: response.status, contentType: response.header("Content-Type"), body: response.body, expectedMsgId: request.msgId
        )
    }
}

/// Runs `body` against a fresh sandbox (apps from ``Fixtures`` unless `configure` changes them)
/// and client; both are shut down afterwards, also when the test fails.
func withSandbox<T>(
    clockMs: Int64 = Fixtures.vectorTimeMs,
    client clientConfiguration: CurlHTTPClient.Configuration = CurlHTTPClient.Configuration(connectTimeoutMs: 1000, timeoutMs: 5000),
    _ configure: (inout SandboxConfiguration) -> Void = { _ in },
    _ body: (SandboxHarness) async throws -> T
) async throws -> T {
    var configuration = SandboxConfiguration(apps: Fixtures.apps, threads: 2)
    configure(&configuration)
    let clock = ManualClock(milliseconds: clockMs)
    let sandbox = CarrierSandbox(configuration: configuration, registry: .builtIn, clock: clock)
    let port = try await sandbox.start()
    let client = CurlHTTPClient(configuration: clientConfiguration)
    let harness = SandboxHarness(sandbox: sandbox, client: client, clock: clock, baseURL: "http://127.0.0.1:\(port)")
    do {
        let result = try await body(harness)
        await client.shutdown(gracePeriodMs: 0)
        await sandbox.shutdown()
        return result
    } catch {
        await client.shutdown(gracePeriodMs: 0)
        await sandbox.shutdown()
        throw error
    }
}

/// A compact JSON body from string fields.
func json(_ fields: [String: Any]) -> [UInt8] {
    Array(try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]))
}

/// A JSON object from a response body.
func object(_ body: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
}

/// The ``CurlTransportError`` a call threw, or `nil` when it returned.
func transportError(_ call: () async throws -> CurlHTTPClient.Response) async throws -> CurlTransportError? {
    do {
        _ = try await call()
        return nil
    } catch let error as CurlTransportError {
        return error
    }
}
