import CarrierSandbox
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Testing

/// CMCC's exchanges through the API in-process, the emulator answering the real provider's calls.
@Suite("REST API against the CMCC emulator, in-process")
struct PhoneNumberInProcessTests {
    @Test("RSA mode: the sandbox's encrypted msisdn is decrypted with the app's key")
    func rsaPhoneNumber() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let token = try sandbox.mintToken(appId: TestConfiguration.rsaApp, phone: "15000000001")
            let answer = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.rsaApp, "token": token])
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.json["phoneNumber"] as? String == "15000000001")
        }
    }

    @Test("number verification answers match for the device's number and mismatch for another")
    func verification() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let first = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: "13800138000", product: "verify")
            let match = try await passgate.post("/v1/phone-number/verify", ["appId": TestConfiguration.md5App, "token": first, "phoneNumber": "13800138000"])
            #expect(match.status == 200, "\(match.body)")
            #expect(match.json["result"] as? String == "match")
            let second = try sandbox.mintToken(appId: TestConfiguration.md5App, phone: "13800138000", product: "verify")
            let mismatch = try await passgate.post("/v1/phone-number/verify", ["appId": TestConfiguration.md5App, "token": second, "phoneNumber": "13800138001"])
            #expect(mismatch.status == 200, "\(mismatch.body)")
            #expect(mismatch.json["result"] as? String == "mismatch")
        }
    }

    @Test("a sane X-Request-Id is kept, an unsafe one replaced")
    func requestIds() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let kept = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App], extraHeaders: [("X-Request-Id", "lb-1234.abc")])
            #expect(kept.header("X-Request-Id") == "lb-1234.abc")
            #expect(kept.error["requestId"] as? String == "lb-1234.abc")
            let replaced = try await passgate.post("/v1/phone-number", ["appId": TestConfiguration.md5App], extraHeaders: [("X-Request-Id", "bad id {}")])
            let generated = try #require(replaced.header("X-Request-Id"))
            #expect(generated != "bad id {}" && generated.count == 32)
        }
    }
}
