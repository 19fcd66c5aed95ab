import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import PassgateCore

/// Turns the parser's `HTTPRequestHead` into the `HTTPRequest` Hummingbird routes: the request
/// NIO's `HTTPRequest(_:secure:false, splitCookie:false)` makes, for less.
///
/// NIO's conversion parses every target with Foundation's `URLComponents` to cut an absolute-form
/// URI down to its path, lowercases each field name into a new string to find `Host`, and
/// validates and lowercases every name again. An origin-form target (`/v1/...`, what clients
/// send to a server that is not a proxy) is already the path; the common names are matched in
/// place against HTTP Types' own constants. Everything else takes NIO's road, so the answer is the
/// same request either way (`HTTP1RequestHeadTests` compares the two).
enum HTTP1RequestHead {
    /// The request for `head`, as a plain-HTTP (not TLS) listener sees it.
    /// - Throws: NIO's `HTTP1TypeConversionError` for a method HTTP Types cannot hold.
    static func request(_ head: HTTPRequestHead) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/") else {
            // Absolute-form (`http://host/path`), asterisk-form (`*`): NIO's parse finds the path.
            return try HTTPRequest(head, secure: false, splitCookie: false)
        }
        let method = try HTTPRequest.Method(head.method)
        var authority: String?
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        for (name, value) in head.headers {
            // The first Host becomes the authority and leaves the fields; any later one stays.
            if authority == nil, ASCIICase.equals(name, lowercased: "host") {
                authority = value
                continue
            }
            // A name that is not a valid token is dropped, as NIO's conversion drops it.
            guard let fieldName = knownName(name) ?? HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return HTTPRequest(method: method, scheme: "http", authority: authority, path: head.uri, headerFields: fields)
    }

    /// One of the names most requests carry, found by length and then compared in place (a loop
    /// over a table of names cost more than `HTTPField.Name`'s own validation). A match keeps
    /// HTTP Types' spelling of the name (`Content-Type` for `content-type`); names compare by their
    /// lowercase form, so nothing that reads the fields sees a difference.
    static func knownName(_ name: String) -> HTTPField.Name? {
        func isName(_ lowercase: StaticString) -> Bool { ASCIICase.equals(name, lowercased: lowercase) }
        switch name.utf8.count {
        case 6: return isName("accept") ? .accept : isName("expect") ? .expect : nil
        case 10: return isName("user-agent") ? .userAgent : isName("connection") ? .connection : nil
        case 12: return isName("content-type") ? .contentType : isName("x-request-id") ? requestID : nil
        case 13: return isName("authorization") ? .authorization : nil
        case 14: return isName("content-length") ? .contentLength : nil
        case 15: return isName("accept-encoding") ? .acceptEncoding : nil
        case 17: return isName("transfer-encoding") ? .transferEncoding : nil
        default: return nil
        }
    }

    private static let requestID = HTTPField.Name("X-Request-Id")!
}
