import Foundation

/// An API answer as a test reads it: status, headers, raw body and the decoded JSON envelope,
/// whether it came over a socket or from the router in-process.
public struct APIAnswer {
    public var status: Int
    /// The body decoded as a JSON object; empty when it is not one (`body` still has it).
    public var json: [String: Any]
    public var headers: [(name: String, value: String)]
    public var body: String

    public init(status: Int, body: [UInt8], headers: [(name: String, value: String)]) {
        self.status = status
        self.headers = headers
        self.body = String(decoding: body, as: UTF8.self)
        json = ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:]
    }

    /// The error envelope's object (`{"error": {…}}`), empty on a success.
    public var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    public var errorCode: String? { error["code"] as? String }
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}
