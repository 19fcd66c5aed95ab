import PassgateCore

extension SandboxFault {
    /// What the connection gets for a carrier call whose real reply is `outcome`.
    func action(for outcome: any EmulatorAnswer) -> SandboxAnswer.Action {
        let json = SandboxAnswer.jsonContentType
        let html = "text/html;charset=UTF-8"
        switch self {
        case .none:
            return .respond(status: outcome.httpStatus, contentType: json, body: outcome.body(echo: outcome.echo), headers: outcome.headers)
        case .http500:
            return .respond(status: 500, contentType: html, body: Self.page("500 Internal Server Error"), headers: [])
        case .http502:
            return .respond(status: 502, contentType: html, body: Self.page("502 Bad Gateway"), headers: [])
        case .html:
            return .respond(status: 200, contentType: html, body: Self.page("系统繁忙，请稍后再试 (system busy)"), headers: [])
        case .truncatedJSON:
            // Cut in the last field, so everything before it (a login's msisdn included) arrives:
            // the case where a client that quotes what it received would leak the number.
            let body = outcome.body(echo: outcome.echo)
            return .respond(status: outcome.httpStatus, contentType: json, body: Array(body.prefix(body.count - max(2, body.count / 10))), headers: [])
        case .wrongInResponseTo:
            var other = MessageID.make()
            while other == outcome.echo { other = MessageID.make() }
            return .respond(status: outcome.httpStatus, contentType: json, body: outcome.body(echo: other), headers: [])
        case .connectionReset:
            return .reset
        case .noAnswer:
            return .hold
        }
    }

    private static func page(_ title: String) -> [UInt8] {
        Array("""
        <html>
        <head><title>\(title)</title></head>
        <body>
        <center><h1>\(title)</h1></center>
        <hr><center>nginx</center>
        </body>
        </html>

        """.utf8)
    }
}
