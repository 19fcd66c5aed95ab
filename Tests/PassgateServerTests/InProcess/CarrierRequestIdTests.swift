import Foundation
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Testing

/// A caller chooses its own `X-Request-Id` (echoed in the answer and the logs), but never what a
/// carrier is sent: providers that take an id of ours (`exID`, `outId`) get one Passgate made.
@Suite("the carrier gets Passgate's own id, not the caller's")
struct CarrierRequestIdTests {
    static let callerId = "caller-chosen-id-7"

    @Test("a caller's X-Request-Id reaches neither the URL, the headers nor the body of a carrier request; the answer keeps it")
    func callerIdNeverSent() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await InProcessPassgate.with(carrier: carrier) { passgate in
            for token in ["echo-token-200001", "echo-token-200002"] {
                let answer = try await passgate.post(
                    "/v1/phone-number", ["appId": InProcessPassgate.echoApp, "token": token], extraHeaders: [("X-Request-Id", Self.callerId)])
                #expect(answer.status == 200, "\(answer.body)")
                #expect(answer.json["requestId"] as? String == Self.callerId && answer.header("X-Request-Id") == Self.callerId)
            }
        }
        let sent = carrier.sent
        #expect(sent.count == 2)
        var ids: [String] = []
        for request in sent {
            let wire = ([request.url] + request.headers.map { "\($0.name): \($0.value)" } + [String(decoding: request.body, as: UTF8.self)]).joined(separator: "\n")
            #expect(!wire.contains(Self.callerId), "\(wire)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
            let id = try #require(object["ref"])
            #expect(MessageID.isWellFormed(id) && id.count == 32, "a generated id: \(id)")
            ids.append(id)
        }
        #expect(Set(ids).count == 2, "one id per call, even for the same X-Request-Id: \(ids)")
    }
}
