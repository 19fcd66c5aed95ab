import PassgateCore
import ProviderCMCC
import Testing

/// Replies a carrier (or a gateway in front of it) can plausibly send, accepted instead of being
/// rejected after the token was spent.
@Suite("CMCC reply parsing: tolerance")
struct CMCCReplyToleranceTests {
    static let success = #"{"inresponseto":"M","resultCode":"103000","msisdn":"13800138000","taskId":"T"}"#

    @Test(
        "a byte order mark, whitespace or NUL padding before the JSON is accepted",
        arguments: ["\u{FEFF}", "  \r\n\t", "\u{FEFF}\n ", "\0\0"]
    )
    func leadingBytes(prefix: String) throws {
        let reply = try CMCCReplyParser.login(status: 200, contentType: "application/json", body: Array((prefix + Self.success).utf8), expectedMsgid: "M")
        #expect(reply.resultCode == "103000" && reply.msisdn == "13800138000")
        let verify = try CMCCReplyParser.verify(
            status: 200, contentType: nil, body: Array((prefix + #"{"header":{"msgId":"M","resultCode":"001"}}"#).utf8), expectedMsgId: "M")
        #expect(verify.resultCode == "001")
    }

    @Test("a non-2xx status carrying a CMCC answer reports the carrier's code, not a bad response", arguments: [400, 403, 500, 503])
    func errorStatusWithAnswer(status: Int) async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "103511", "desc": "IP not allowed"], status: status)
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .ipNotWhitelisted && error.carrierAnswer?.code == "103511")
        #expect(exchange.call?.rawCode == "103511" && exchange.call?.httpStatus == status)
    }

    @Test("a success code under an error status is believed by neither half: a bad response")
    func successUnderErrorStatus() async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "103000", "msisdn": "13800138000"], status: 500)
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .carrierBadResponse && error.message.contains("HTTP 500"))
        #expect(!"\(error)".contains("13800138000"))
    }

    @Test("a non-2xx status whose JSON is not a CMCC answer stays a bad response naming the status")
    func errorStatusWithOtherJSON() {
        #expect {
            try CMCCReplyParser.login(status: 502, contentType: "application/json", body: Array(#"{"error":"upstream"}"#.utf8), expectedMsgid: "M")
        } throws: { error in
            "\(error)".contains("HTTP 502") && (error as? PassgateError)?.code == .carrierBadResponse
        }
    }

    @Test("the JSON parser's own error (offset and problem) is kept as the underlying cause")
    func syntaxErrorKept() throws {
        // Offsets count from the start of the body, byte order mark included.
        let body = Array("\u{FEFF}{\"resultCode\":10300x}".utf8)
        do {
            _ = try CMCCReplyParser.login(status: 200, contentType: nil, body: body, expectedMsgid: "M")
            Issue.record("accepted")
        } catch {
            let syntax = try #require(error.underlying as? JSONSyntaxError)
            #expect(syntax.offset == 22 && syntax.problem.contains("'x'"), "\(syntax)")
        }
    }

    @Test("a result code that could be a phone number is a malformed field and is not echoed")
    func phoneNumberAsCode() {
        #expect {
            try CMCCReplyParser.login(status: 200, contentType: nil, body: Array(#"{"resultCode":"13800138000"}"#.utf8), expectedMsgid: "M")
        } throws: { error in
            guard let error = error as? PassgateError else { return false }
            return error.code == .carrierBadResponse && !"\(error) \(error.message)".contains("13800138000")
        }
    }
}
