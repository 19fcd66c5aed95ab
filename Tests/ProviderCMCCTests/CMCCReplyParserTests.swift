import PassgateCore
import ProviderCMCC
import Testing

@Suite("CMCC reply parsing")
struct CMCCReplyParserTests {
    /// loginTokenValidate codes -> normalized code ("ok" for success), from docs/cmcc-result-codes.md and docs/errors.md.
    static let loginExpectations: [(String, String)] = [
        ("103000", "ok"), ("103101", "signature_rejected"), ("103113", "token_invalid"), ("103119", "app_not_enabled"),
        ("103133", "token_app_mismatch"), ("103211", "carrier_error"), ("103412", "carrier_rejected"),
        ("103414", "carrier_rejected"), ("103511", "ip_not_whitelisted"), ("103811", "token_invalid"),
        ("104201", "token_invalid"), ("105018", "token_wrong_product"), ("105019", "app_not_enabled"),
        ("105312", "quota_exhausted"), ("105313", "carrier_rejected"),
        // legacy codes
        ("103107", "carrier_rejected"), ("103505", "carrier_rejected"), ("103911", "rate_limited"), ("103404", "carrier_rejected"),
        ("103102", "signature_rejected"),
        // undocumented
        ("103999", "carrier_error"), ("999999", "carrier_error"),
    ]

    /// tokenValidate codes -> normalized code ("match"/"mismatch" for the billed answers).
    static let verifyExpectations: [(String, String)] = [
        ("000", "match"), ("001", "mismatch"), ("002", "carrier_error"), ("003", "carrier_error"), ("004", "carrier_rejected"),
        ("102", "carrier_rejected"), ("124", "ip_not_whitelisted"), ("302", "signature_rejected"), ("303", "carrier_rejected"),
        ("606", "token_invalid"), ("999", "carrier_error"), ("103420", "app_not_enabled"), ("102315", "quota_exhausted"),
        ("777", "carrier_error"),
    ]

    @Test("every login result code maps to its normalized outcome, with raw code kept", arguments: loginExpectations)
    func loginCodes(code: String, expected: String) async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": code, "msisdn": "13800138000", "taskId": "T1", "desc": "carrier says: \(code.count) chars"])
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        let call = try #require(exchange.call)
        #expect(call.rawCode == code)
        #expect(call.normalizedCode == expected)
        #expect(call.billable == (expected == "ok"))
        switch exchange.result {
        case .success(let outcome):
            #expect(expected == "ok")
            #expect(outcome.phoneNumber == "13800138000" && outcome.carrierTaskId == "T1")
        case .failure(let error):
            #expect(error.code.rawValue == expected)
            #expect(error.carrierAnswer == CarrierAnswer(provider: "cmcc", code: code, message: "carrier says: \(code.count) chars"))
            #expect(error.message.contains(code))
        }
    }

    @Test("every verification result code maps to match, mismatch or its error", arguments: verifyExpectations)
    func verifyCodes(code: String, expected: String) async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply([
                "header": ["msgId": ScriptedTransport.msgId(ofVerify: request), "resultCode": code, "appId": "300011111111"],
                "body": ["resultDesc": "r-\(code.count)", "taskId": "T2"],
            ])
        }
        let exchange = await ScriptedCMCC(transport: transport).verify(app: Fixtures.md5App, token: "tok", phoneNumber: "13800138000", endpoint: Fixtures.endpoint)
        #expect(exchange.call?.rawCode == code)
        #expect(exchange.call?.billable == (expected == "match" || expected == "mismatch"))
        switch exchange.result {
        case .success(let outcome): #expect(outcome.result.rawValue == expected && outcome.carrierTaskId == "T2")
        case .failure(let error):
            #expect(error.code.rawValue == expected)
            #expect(error.carrierAnswer?.code == code && error.carrierAnswer?.message == "r-\(code.count)")
        }
    }

    @Test("resultcode in lower case and numeric values are accepted")
    func spellings() throws {
        let lower = try CMCCReplyParser.login(status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"M","resultcode":"104201"}"#), expectedMsgid: "M")
        #expect(lower.resultCode == "104201")
        let numeric = try CMCCReplyParser.login(status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"M","resultCode":103000,"msisdn":"13800138000","extra":{"x":[1]}}"#), expectedMsgid: "M")
        #expect(numeric.resultCode == "103000" && numeric.msisdn == "13800138000")
        let verifyNumeric = try CMCCReplyParser.verify(status: 200, contentType: nil, body: Fixtures.json(#"{"header":{"msgId":"M","resultCode":1}}"#), expectedMsgId: "M")
        #expect(verifyNumeric.resultCode == "001")
        for (written, meant) in [("103000.0", "103000"), ("1.03e5", "103000"), ("-1", "-1"), ("1.5", "1.5")] {
            let reply = try CMCCReplyParser.login(status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"M","resultCode":\#(written)}"#), expectedMsgid: "M")
            #expect(reply.resultCode == meant, "\(written)")
        }
    }

    @Test("header and body given as JSON strings are parsed like objects")
    func stringifiedHeaderAndBody() throws {
        let text = #"{"header":"{\"msgId\":\"M\",\"resultCode\":\"000\"}","body":"{\"taskId\":\"T9\",\"resultDesc\":\"ok\"}"}"#
        let reply = try CMCCReplyParser.verify(status: 200, contentType: "text/plain", body: Fixtures.json(text), expectedMsgId: "M")
        #expect(reply.resultCode == "000" && reply.taskId == "T9" && reply.resultDesc == "ok")
    }

    @Test("only a numeric 0 or 1 is padded to 000/001: a short string code (\" 00\", \"0\") stays what it is, never a match")
    func onlyNumericCodesArePadded() throws {
        for (raw, expected) in [("0", "000"), ("1", "001"), (#"" 00""#, "00"), (#""0""#, "0"), (#""01""#, "01")] {
            let reply = try CMCCReplyParser.verify(status: 200, contentType: nil, body: Fixtures.json(#"{"header":{"msgId":"M","resultCode":\#(raw)}}"#), expectedMsgId: "M")
            #expect(reply.resultCode == expected, "\(raw)")
        }
    }

    @Test("a reply for another msgid is a bad response")
    func msgidMismatch() {
        #expect(throws: PassgateError.self) {
            try CMCCReplyParser.login(status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"OTHER","resultCode":"103000"}"#), expectedMsgid: "M")
        }
        do {
            _ = try CMCCReplyParser.verify(status: 200, contentType: nil, body: Fixtures.json(#"{"header":{"msgId":"OTHER","resultCode":"000"}}"#), expectedMsgId: "M")
            Issue.record("mismatch accepted")
        } catch {
            #expect(error.code == .carrierBadResponse)
            guard case .reply(.msgidMismatch(let expected, let received)) = error.reason else { Issue.record("wrong reason \(error.reason)"); return }
            #expect(expected == "M" && received == "OTHER")
        }
    }

    @Test("a msgid echoed in another letter case is accepted; bytes that differ only in bit 0x20 outside A-Z are not")
    func msgidEchoCase() throws {
        let echoed = try CMCCReplyParser.login(
            status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"ab12cd-EF","resultCode":"103000","msisdn":"13800138000"}"#),
            expectedMsgid: "AB12CD-ef")
        #expect(echoed.resultCode == "103000")
        for (received, expected) in [("M@", "M`"), ("a[", "A{"), ("AB", "ABC"), ("x1", "X2")] {
            #expect(throws: PassgateError.self, "\(received) vs \(expected)") {
                try CMCCReplyParser.login(
                    status: 200, contentType: nil, body: Fixtures.json(#"{"inresponseto":"\#(received)","resultCode":"103000"}"#),
                    expectedMsgid: expected)
            }
        }
    }

    @Test(
        "non-protocol replies are bad responses that say what arrived",
        arguments: [
            (200, "text/html", "<html><body>502 Bad Gateway</body></html>", "HTML", "both"),
            (200, "application/json", "  <!DOCTYPE html><html>", "HTML", "both"),
            (500, "text/plain", "upstream error", "HTTP 500", "both"),
            (502, "text/html", "<html>bad gateway</html>", "HTML", "both"),
            // Named HTML by its Content-Type alone, in any case, although the body looks like JSON.
            (200, "Text/HTML; charset=GBK", #"{"resultCode":"103000"}"#, "HTML", "both"),
            (200, "application/xhtml+xml", #"{"resultCode":"103000"}"#, "HTML", "both"),
            (200, "application/json", #"{"inresponseto":"M","resultCode":"10300"#, "JSON", "both"),
            (200, "application/json", "", "empty body", "both"),
            (200, "application/json", "[1,2,3]", "JSON", "both"),
            (200, "application/json", #"{"inresponseto":"M"}"#, "resultCode", "login"),
            (200, "application/json", #"{"body":{}}"#, "header", "verify"),
            (200, "application/json", #"{"header":"not json","body":{}}"#, "header", "verify"),
        ]
    )
    func badReplies(status: Int, contentType: String, body: String, mentions: String, api: String) {
        var parsers: [() throws -> Any] = []
        if api != "verify" { parsers.append { try CMCCReplyParser.login(status: status, contentType: contentType, body: Fixtures.json(body), expectedMsgid: "M") } }
        if api != "login" { parsers.append { try CMCCReplyParser.verify(status: status, contentType: contentType, body: Fixtures.json(body), expectedMsgId: "M") } }
        for parse in parsers {
            do {
                _ = try parse()
                Issue.record("accepted: \(body)")
            } catch let error as PassgateError {
                #expect(error.code == .carrierBadResponse)
                #expect(!error.retryable)
                #expect("\(error.reason) \(error.message)".contains(mentions), "\(error)")
            } catch { Issue.record("unexpected \(error)") }
        }
    }

    @Test("a success without msisdn is a bad response, still billed")
    func successWithoutMSISDN() async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "103000", "taskId": "T"])
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .carrierBadResponse)
        #expect(error.message.contains("msisdn"))
        #expect(exchange.call?.billable == true)
    }

    @Test("an MD5-mode success whose msisdn is not a number is a bad response that hints at RSA mode")
    func md5ModeCiphertext() async throws {
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "103000", "msisdn": String(repeating: "AB", count: 128)])
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .carrierBadResponse)
        #expect(error.message.contains("signMode: rsa"))
    }
}
