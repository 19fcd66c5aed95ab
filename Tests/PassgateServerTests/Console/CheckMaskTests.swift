import PassgateCore
import Testing

@testable import PassgateServer

/// The integration check's mask: the pasted token and number never shown, in any of the forms a
/// request carries them, while codes, timestamps and signatures stay readable.
@Suite("the integration check's mask")
struct CheckMaskTests {
    static let token = "STsid0000001a9f3e7c1d2b4a6f8e0c9d7b5a3f1e2d4c6b8a0"

    @Test("the token becomes its ends and length, raw, percent-encoded and JSON-escaped")
    func token() {
        let token = "ab+/cd==" + Self.token
        let mask = CheckMask(token: token, phone: nil)
        let text = mask.apply("t=\(token)&u=\(PercentEncoding.encode(token)) {\"t\":\"\(token.replacing("/", with: "\\/"))\"}")
        #expect(!text.contains(token) && !text.contains(PercentEncoding.encode(token)) && !text.contains(Self.token))
        #expect(text.contains("ab+/…b8a0 (\(token.count) chars)") && text.contains(CheckMask.mask(token: token)))
    }

    @Test("the phone and any other mainland number are masked; 86-prefixed too; codes and timestamps are not")
    func numbers() {
        let mask = CheckMask(token: nil, phone: "13800138000")
        let text = mask.apply(#"{"resultCode":"103101","msisdn":"13912345678","n":"8613700001111","systemtime":"20261129165501123","ts":1764412345678,"p":"13800138000"}"#)
        #expect(text.contains("103101") && text.contains("20261129165501123") && text.contains("1764412345678"))
        #expect(text.contains("139****5678") && text.contains("86137****1111") && text.contains("138****8000"))
        for number in ["13912345678", "13700001111", "13800138000"] { #expect(!text.contains(number)) }
    }

    @Test("a value the provider decrypts to a number is hidden; a long opaque value only in a reply")
    func encrypted() {
        let ciphertext = String(repeating: "A1B2", count: 32)
        let signature = String(repeating: "c3d4", count: 32)
        let decrypting = CheckMask(token: nil, phone: nil, decrypt: { $0 == ciphertext ? "13800138000" : nil })
        let request = decrypting.apply("msisdn=\(ciphertext)&sign=\(signature)")
        #expect(request == "msisdn=<encrypted number: 128 chars>&sign=\(signature)")
        let reply = CheckMask(token: nil, phone: nil, hidesOpaqueValues: true).apply("sign=\(signature)")
        #expect(reply == "sign=<opaque value: 128 chars>")
    }

    @Test("short tokens keep only their length")
    func shortToken() {
        #expect(CheckMask.mask(token: "abc") == "… (3 chars)")
        #expect(CheckMask.mask(token: "abcdefghij") == "ab…ij (10 chars)")
        #expect(CheckMask.mask(phone: "12345") == "<5 characters>")
    }
}
