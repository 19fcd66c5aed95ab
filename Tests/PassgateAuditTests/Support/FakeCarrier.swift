import PassgateCore
import ProviderCMCC
import Foundation

/// A CMCC login endpoint played in-process: answers each token with a fixed number, or 104201
/// for tokens starting with `spent`. Real `CMCCProvider` calls, so real `CarrierCall`s.
struct FakeCarrier: CarrierTransport {
    let phoneNumber: String

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        let object = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] ?? [:]
        let msgid = object["msgid"] as? String ?? ""
        let token = object["token"] as? String ?? ""
        let answer: [String: Any] = token.hasPrefix("spent")
            ? ["inresponseto": msgid, "resultCode": "104201", "desc": "token失效或不存在"]
            : ["inresponseto": msgid, "resultCode": "103000", "msisdn": phoneNumber, "taskId": "T\(msgid.prefix(8))"]
        return CarrierHTTPReply(status: 200, contentType: "application/json", body: Array(try JSONSerialization.data(withJSONObject: answer)))
    }

    static let app = CMCCApp(appId: "300011111111", login: .md5(secret: "0123456789ABCDEF0123456789ABCDEF"), verify: nil)
    static let endpoint = ProviderEndpoint(baseURL: "https://carrier.test")

    /// One real `CMCCProvider` call to this carrier, sent as the server's gateway sends one.
    func exchange(token: String) async throws -> CarrierExchange<PhoneNumberOutcome> {
        let call = try CMCCProvider().phoneNumber(app: Self.app, token: token, context: CallContext(requestId: "audit-test"))
        return await call.send(to: Self.endpoint, via: self, clock: SystemClock())
    }
}
