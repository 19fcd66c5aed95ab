/// A failure the sandbox injects into the answers of the emulated providers' endpoints, never
/// into `/sandbox/*`.
///
/// The request is always validated first and its token consumed if it was valid, exactly as a
/// real carrier spends a token whose answer is then lost: a clean retry can only get the provider's "token invalid" code.
public enum SandboxFault: String, Sendable, CaseIterable {
    /// Answer normally.
    case none
    /// HTTP 500 with an HTML error page.
    case http500
    /// HTTP 502 with a proxy's HTML error page.
    case http502
    /// HTTP 200 with `Content-Type: text/html` and an HTML error page, like a captive portal or WAF.
    case html
    /// HTTP 200 JSON whose body is the valid reply cut short inside its last field, so everything
    /// before it (a login's msisdn included) arrives (Content-Length matches the cut body).
    case truncatedJSON
    /// A complete reply that echoes another msgid in `inresponseto` / `header.msgId`.
    case wrongInResponseTo
    /// Read the request, then close with `SO_LINGER 0`: the client sees a TCP RST and no reply.
    case connectionReset
    /// Read the request and never answer; the connection stays open until the sandbox shuts down.
    case noAnswer
}
