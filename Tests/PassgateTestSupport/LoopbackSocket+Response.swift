import Foundation

/// One HTTP/1.1 answer as it came over the wire.
public struct WireResponse: Sendable {
    public var status: Int
    /// Field names lowercased.
    public var headers: [String: String]
    public var body: String
}

extension LoopbackSocket {
    /// Reads one HTTP/1.1 answer framed by `Content-Length` (no body when there is none, or when
    /// `bodyless`: the answer to a `HEAD`). An interim answer (`100 Continue`) is read as one.
    public func readResponse(bodyless: Bool = false) async throws -> WireResponse {
        let head = String(decoding: try await read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let body = String(decoding: try await read(count: length), as: UTF8.self)
        return WireResponse(status: Int(statusLine[1]) ?? 0, headers: headers, body: body)
    }

    /// `GET path` on this connection; the answer's body.
    public func get(_ path: String) async throws -> String {
        try send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return try await readResponse().body
    }
}
