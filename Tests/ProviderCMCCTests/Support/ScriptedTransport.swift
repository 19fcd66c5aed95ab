import PassgateCore
import ProviderCMCC
import Foundation
import Synchronization

/// A transport that plays a carrier from a closure and records what it was sent.
final class ScriptedTransport: CarrierTransport {
    typealias Script = @Sendable (CarrierHTTPRequest) throws -> CarrierHTTPReply

    private let script: Script
    private let sent = Mutex<[CarrierHTTPRequest]>([])

    init(_ script: @escaping Script) {
        self.script = script
    }

    var requests: [CarrierHTTPRequest] { sent.withLock { $0 } }

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        sent.withLock { $0.append(request) }
        return try script(request)
    }

    /// A JSON reply with status 200.
    static func reply(_ object: [String: Any], status: Int = 200) -> CarrierHTTPReply {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return CarrierHTTPReply(status: status, contentType: "application/json", body: [UInt8](data))
    }

    /// The msgid a login request carried, to echo it.
    static func msgid(of request: CarrierHTTPRequest) -> String {
        let object = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
        return object["msgid"] as! String
    }

    /// The header msgId a verify request carried.
    static func msgId(ofVerify request: CarrierHTTPRequest) -> String {
        let object = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
        return (object["header"] as! [String: Any])["msgId"] as! String
    }
}

/// The CMCC provider's calls sent through a transport, exactly as the server's gateway sends one
/// attempt (`PreparedCall.send`): what the provider tests drive a scripted carrier with.
struct ScriptedCMCC {
    let transport: any CarrierTransport
    var clock: any PassgateClock = SystemClock()

    func phoneNumber(app: CMCCApp, token: String, endpoint: ProviderEndpoint) async -> CarrierExchange<PhoneNumberOutcome> {
        do {
            let call = try CMCCProvider().phoneNumber(app: app, token: token, context: CallContext(clock: clock, requestId: "test"))
            return await call.send(to: endpoint, via: transport, clock: clock)
        } catch {
            return CarrierExchange(call: nil, result: .failure(error))
        }
    }

    func verify(app: CMCCApp, token: String, phoneNumber: String, endpoint: ProviderEndpoint) async -> CarrierExchange<VerificationOutcome> {
        do {
            let call = try CMCCProvider().verify(app: app, token: token, phoneNumber: phoneNumber, context: CallContext(clock: clock, requestId: "test"))
            return await call.send(to: endpoint, via: transport, clock: clock)
        } catch {
            return CarrierExchange(call: nil, result: .failure(error))
        }
    }
}
