import Foundation
import HTTPTypes
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Testing

/// The REST contract, in-process: every answer the API gives, success or error, has the shape
/// `openapi.yaml` documents, whichever provider (here the test's echo provider) is behind it.
@Suite("REST API contract, in-process")
struct APIContractTests {
    @Test("a phone number through a plugged-in provider: 200 with the documented fields, the caller's request id, and a replay that does not call the carrier")
    func phoneNumber() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await InProcessPassgate.with(carrier: carrier) { passgate in
            let request: [String: any Sendable] = ["appId": InProcessPassgate.echoApp, "token": "echo-token-100001", "reference": "login-1"]
            let first = try await passgate.post("/v1/phone-number", request, extraHeaders: [("X-Request-Id", "contract-1")])
            #expect(first.status == 200, "\(first.body)")
            try OpenAPISchema.check(first.json, against: "PhoneNumberResponse", skippingEnumOf: ["provider"])
            #expect(first.json["phoneNumber"] as? String == InProcessPassgate.echoNumber && first.json["maskedPhoneNumber"] as? String == "139****5670")
            #expect(first.json["provider"] as? String == "echo" && first.json["carrierTaskId"] as? String == "t-100001")
            #expect(first.json["requestId"] as? String == "contract-1" && first.header("X-Request-Id") == "contract-1")
            #expect(first.json["reference"] as? String == "login-1" && first.json["replayed"] as? Bool == false)

            let replay = try await passgate.post("/v1/phone-number", request)
            #expect(replay.status == 200 && replay.json["replayed"] as? Bool == true && carrier.calls == 1, "\(replay.body)")
            #expect(replay.json["carrierTaskId"] as? String == "t-100001")
        }
    }

    @Test("every kind of error, from the request, the caller, the provider's code or the network, has the documented envelope")
    func errorEnvelopes() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await InProcessPassgate.with(carrier: carrier) { passgate in
            let echo = InProcessPassgate.echoApp
            var answers: [(expected: (Int, String), answer: APIAnswer)] = []
            func expect(_ status: Int, _ code: String, _ answer: APIAnswer) { answers.append(((status, code), answer)) }

            expect(400, "invalid_request", try await passgate.post("/v1/phone-number", ["appId": echo]))
            expect(401, "unauthenticated", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "t"], apiKey: "wrong"))
            expect(403, "app_forbidden", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "t"], apiKey: TestConfiguration.otherApiKey))
            expect(404, "app_unknown", try await passgate.post("/v1/phone-number", ["appId": "nosuchapp", "token": "t"]))
            expect(404, "not_found", try await passgate.send(.get, "/v2/phone-number"))
            expect(405, "method_not_allowed", try await passgate.send(.get, "/v1/phone-number"))
            expect(413, "payload_too_large", try await passgate.post("/v1/phone-number", ["appId": echo, "token": String(repeating: "a", count: 5000)]))
            expect(415, "unsupported_media_type", try await passgate.send(.post, "/v1/phone-number", body: Array("appId=1".utf8), headers: [
                ("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/x-www-form-urlencoded"),
            ]))
            expect(502, "app_not_enabled", try await passgate.post("/v1/phone-number/verify", ["appId": echo, "token": "t", "phoneNumber": "13912345670"]))
            _ = try await passgate.post("/v1/phone-number", ["appId": echo, "token": "echo-token-200001"])
            expect(422, "token_invalid", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "echo-token-200001"],
                                                                  apiKey: TestConfiguration.secondShopApiKey))
            carrier.failTransfers(.connectionRefused)
            expect(503, "carrier_unavailable", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "echo-token-200002"]))
            carrier.failTransfers(.timeoutAfterSend)
            expect(504, "carrier_timeout", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "echo-token-200003"]))
            carrier.failTransfers(nil)
            carrier.truncateReplies()
            expect(502, "carrier_bad_response", try await passgate.post("/v1/phone-number", ["appId": echo, "token": "echo-token-200004"]))

            for (expected, answer) in answers {
                #expect(answer.status == expected.0 && answer.errorCode == expected.1, "expected \(expected): \(answer.body)")
                do { try OpenAPISchema.check(answer.json, against: "Error") } catch { Issue.record("\(error): \(answer.body)") }
                #expect(answer.error["requestId"] as? String == answer.header("X-Request-Id"), "\(answer.body)")
            }
            let byCode = Dictionary(answers.map { ($0.expected.1, $0.answer) }) { first, _ in first }
            #expect(byCode["carrier_unavailable"]?.error["retryable"] as? Bool == true, "never sent: the same token may be retried")
            #expect(byCode["carrier_timeout"]?.error["retryable"] as? Bool == false, "may have been spent: no retry")
            #expect((byCode["token_invalid"]?.error["carrier"] as? [String: Any])?["code"] as? String == "9")
            #expect(byCode["method_not_allowed"]?.header("Allow") == "POST")
            // A reply Passgate could not read is described by its shape, never quoted: the number stays out.
            #expect(byCode["carrier_bad_response"]?.body.contains(InProcessPassgate.echoNumber) == false)
        }
    }

    @Test("the response schemas' provider enum lists exactly the providers this build registers")
    func providerEnum() throws {
        for schema in ["PhoneNumberResponse", "VerifyResponse"] {
            let provider = try OpenAPISchema.properties(of: schema)["provider"] as? [String: Any]
            #expect(provider?["enum"] as? [String] == ProviderRegistry.testing.ids, "\(schema).provider")
        }
    }
}
