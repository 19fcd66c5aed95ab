import PassgateCore
import ProviderCMCC
import Testing

/// Byte-level replacements for Foundation string calls on the per-call path (bench/decisions/0001-json-and-text-as-bytes.md).
@Suite("CMCC per-call helpers")
struct CMCCHotPathTests {
    @Test("an echoed msgid matches ours in any letter case, and only ours", arguments: [
        ("a1b2c3d4e5f6", "A1B2C3D4E5F6", true), ("a1b2-C3", "A1B2-c3", true), ("abc", "abc", true),
        ("abc", "abd", false), ("abc", "abcd", false), ("a-b", "a_b", false), ("[", "{", false), ("@", "`", false), ("é", "É", false),
    ])
    func echoCase(sent: String, echoed: String, accepted: Bool) {
        let body = Fixtures.json(#"{"inresponseto":"\#(echoed)","resultCode":"103000","msisdn":"13800138000"}"#)
        let parsed = try? CMCCReplyParser.login(status: 200, contentType: nil, body: body, expectedMsgid: sent)
        #expect((parsed != nil) == accepted)
    }

    @Test("an endpoint's host is the authority between the scheme and the path", arguments: [
        ("https://www.cmpassport.com", "www.cmpassport.com"), ("https://onekey2.cmpassport.com/", "onekey2.cmpassport.com"),
        ("http://127.0.0.1:8090", "127.0.0.1:8090"), ("http://[::1]:8090/prefix/path", "[::1]:8090"), ("carrier.test/x", "carrier.test"),
    ])
    func endpointHost(baseURL: String, host: String) {
        #expect(ProviderEndpoint(baseURL: baseURL).host == host)
    }
}
