import PassgateCore
import Testing

/// Nothing a provider sends reaches a log line or an error in clear: phone numbers, tokens,
/// signatures. What is left keeps the shape for diagnosis.
@Suite("redaction of provider bodies")
struct RedactionTests {
    @Test(
        "sensitive field values are replaced in JSON, truncated JSON and form bodies",
        arguments: [
            (#"{"resultCode":"103000","msisdn":"13800138000"}"#, #"{"resultCode":"<6 digits>","msisdn":"<redacted>"}"#),
            (#"{"inresponseto":"M","resultCode":"103000","msisdn":"1380013"#, #"{"inresponseto":"M","resultCode":"<6 digits>","msisdn":"<redacted>"#),
            (#"{"Phone" : 13800138000, "a":1}"#, #"{"Phone" : <redacted>, "a":1}"#),
            (#"{"mobileName":"a1b2\"c3","token":"STsid00","sign":"ABCD"}"#, #"{"mobileName":"<redacted>","token":"<redacted>","sign":"<redacted>"}"#),
            ("appId=a1&token=STsid0000001&sign=ff&x=1", "appId=a1&token=<redacted>&sign=<redacted>&x=1"),
            ("<html>call 13800138000 now</html>", "<html>call <11 digits> now</html>"),
            ("code 1234 and 12345", "code 1234 and <5 digits>"),
        ]
    )
    func redacts(input: String, expected: String) {
        #expect(Redaction.redact(input) == expected)
    }

    @Test("a body's shape keeps its length, content type and redacted start, and marks a cut")
    func bodyShape() {
        let body = Array((#"{"msisdn":"13800138000","pad":""# + String(repeating: "x", count: 200) + "\"}").utf8)
        let shape = BodyShape(body: body, contentType: "application/json; charset=utf-8")
        #expect(shape.length == body.count && shape.contentType == "application/json; charset=utf-8")
        #expect(shape.start.hasPrefix(#"{"msisdn":"<redacted>","pad":"xxx"#) && shape.start.hasSuffix("…"))
        #expect(!shape.description.contains("13800138000"))
        #expect(BodyShape(body: [], contentType: nil).description == "an empty body")
    }

    @Test("control bytes and newlines are made printable; a hostile content type is cut to safe characters")
    func printable() {
        let shape = BodyShape(body: Array("a\nb\u{1}c".utf8), contentType: "text/html\r\nX-Injected: 13800138000")
        #expect(shape.start == "a b.c")
        #expect(shape.contentType == "text/htmlX-Injected <11 digits>")
    }

    @Test("a sensitive value that starts inside the shown part is redacted even if it ends beyond it")
    func longValue() {
        let body = Array((String(repeating: " ", count: 80) + #"{"msisdn":""# + String(repeating: "AB", count: 256) + "\"}").utf8)
        let shape = BodyShape(body: body, contentType: nil)
        #expect(!shape.start.contains("ABAB"), "\(shape.start)")
    }
}
