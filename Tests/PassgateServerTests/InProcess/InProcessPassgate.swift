import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateServer
import PassgateTestSupport

/// The API driven in-process: the router `PassgateRuntime.run` serves, called through
/// HummingbirdTesting's `.router` mode (no socket), with the echo provider's carrier as the
/// gateway's transport. For the contract and the error envelopes, where a socket adds nothing.
struct InProcessPassgate: Sendable {
    static let echoApp = "echoapp1"
    static let echoSecret = "echo-secret-in-process-41c7"
    static let echoNumber = "13912345670"

    let client: any TestClientProtocol

    /// `TestConfiguration.make()` (its CMCC apps, no sandbox) plus the echo provider, registered
    /// the documented way, and one echo app granted to the clients shop and shop2.
    static func configuration() throws -> PassgateConfiguration {
        var configuration = TestConfiguration.make(sandbox: false)
        configuration.registry = .testing.adding([EchoProvider()])
        configuration.providers[EchoProvider.id] = ProviderSettings(id: EchoProvider.id, baseURLs: ["https://echo.invalid"])
        configuration.apps.append(AppSettings(provider: EchoProvider.id, settings: EchoProvider.App(appId: echoApp, secret: echoSecret)))
        configuration.clients[0].apps.insert(echoApp)  // shop
        configuration.clients[2].apps.insert(echoApp)  // shop2: a second caller, for the spent-token case
        return configuration
    }

    /// Runs `body` against the router of `configuration`, with `carrier` answering its calls.
    static func with<T: Sendable>(
        _ configuration: PassgateConfiguration? = nil, carrier: EchoCarrier = EchoCarrier(secret: echoSecret, number: echoNumber),
        logs: MemoryLogSink = MemoryLogSink(), _ body: @Sendable (InProcessPassgate) async throws -> T
    ) async throws -> T {
        let runtime = PassgateRuntime(configuration: try configuration ?? Self.configuration(), logSink: logs)
        return try await runtime.inProcessApplication(transport: carrier).test(.router) { client in
            try await body(InProcessPassgate(client: client))
        }
    }

    /// A raw request.
    func send(_ method: HTTPRequest.Method, _ path: String, body: [UInt8] = [], headers: [(name: String, value: String)] = []) async throws -> APIAnswer {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let response = try await client.execute(uri: path, method: method, headers: fields, body: body.isEmpty ? nil : ByteBuffer(bytes: body))
        return APIAnswer(
            status: response.status.code, body: Array(response.body.readableBytesView),
            headers: response.headers.map { ($0.name.rawName, $0.value) })
    }

    /// An authenticated JSON POST.
    func post(_ path: String, _ object: [String: any Sendable], apiKey: String = TestConfiguration.apiKey,
              extraHeaders: [(name: String, value: String)] = []) async throws -> APIAnswer {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        return try await send(.post, path, body: body, headers: [("Authorization", "Bearer \(apiKey)"), ("Content-Type", "application/json")] + extraHeaders)
    }
}
