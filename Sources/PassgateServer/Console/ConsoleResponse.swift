import HTTPTypes
import Hummingbird
import NIOCore
import PassgateConsole

/// The console's answers: HTML pages and redirects, each with the headers that keep a page of
/// the console out of caches, frames and other sites' referrers.
enum ConsoleResponse {
    /// Only the console's own stylesheet; no script, no frame, forms back to the console only.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The headers on every console answer (`ConsoleHeadersMiddleware` adds them).
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        .cacheControl: "no-store",
        .xFrameOptions: "DENY",
        .referrerPolicy: "no-referrer",
        .xContentTypeOptions: "nosniff",
    ]

    static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: page.rendered)))
    }

    /// 303 See Other: after a form, or to the sign-in page.
    static func redirect(to path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path])
    }

    static func stylesheet() -> Response {
        Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: ConsoleStylesheet.css)))
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
