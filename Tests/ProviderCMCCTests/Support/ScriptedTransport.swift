import PassgateCore
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
