import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderJVerification
import Synchronization
import Testing

/// A JVerification app that names its own endpoint (a reseller such as Upyun): the login goes to
/// its path at its base URL, with JiGuang's body and authentication.
@Suite("JVerification: an app's own endpoint")
struct JVerificationEndpointTests {
    static let upyun = JVerificationApp.Endpoint(baseURL: "https://sim-api.upyun.com", path: "/login/token/verify")
    static let app = JVerificationApp(
        appId: "upyun-shop", appKey: "7d431e42dfa6a6d693ac2d04", masterSecret: "5e987ac6d2e04d95a9d8f0d1", privateKey: TestRSAKeys.primary1024,
        endpoint: upyun)

    /// Records the URL of every request and answers nothing useful.
    final class RecordingTransport: CarrierTransport {
        let urls = Mutex<[String]>([])
        func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
            urls.withLock { $0.append(request.url) }
            return CarrierHTTPReply(status: 200, contentType: "application/json", body: Array(#"{"code": 9003, "content": "token expired"}"#.utf8))
        }
    }

    @Test("the login request carries the endpoint's path and base URL, JiGuang's body and Basic header")
    func loginRequest() throws {
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok", context: CallContext(requestId: "req-1"))
        #expect(call.request.path == "/login/token/verify" && call.request.baseURL == "https://sim-api.upyun.com")
        #expect(call.request.headers.contains { $0.name == "Authorization" && $0.value.hasPrefix("Basic ") })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(call.request.body)) as? [String: String])
        #expect(body == ["loginToken": "tok", "exID": "req-1"])
        let plain = JVerificationApp(appId: "jg", appKey: "k", masterSecret: "s", privateKey: TestRSAKeys.primary1024)
        let direct = try JVerificationProvider().phoneNumber(app: plain, token: "tok", context: CallContext(requestId: "req-1"))
        #expect(direct.request.path == "/v1/web/loginTokenVerify" && direct.request.baseURL == nil)
    }

    @Test("sent, the call goes to the endpoint whatever base URL the server picked, with the provider's timeouts")
    func sentToTheEndpoint() async throws {
        let transport = RecordingTransport()
        let call = try JVerificationProvider().phoneNumber(app: Self.app, token: "tok", context: CallContext(requestId: "req-1"))
        let exchange = await call.send(to: ProviderEndpoint(baseURL: "https://api.verification.jpush.cn"), via: transport, clock: ManualClock(milliseconds: 0))
        #expect(transport.urls.withLock { $0 } == ["https://sim-api.upyun.com/login/token/verify"])
        #expect(exchange.call?.host == "sim-api.upyun.com" && exchange.call?.rawCode == "9003")
        let verify = try JVerificationProvider().verify(app: Self.app, token: "tok", phoneNumber: "13900001234", context: CallContext(requestId: "req-2"))
        _ = await verify.send(to: ProviderEndpoint(baseURL: "https://api.verification.jpush.cn"), via: transport, clock: ManualClock(milliseconds: 0))
        #expect(transport.urls.withLock { $0 }.last == "https://sim-api.upyun.com/v1/web/verify")
    }
}
