import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import Foundation
import OpenSSLCrypto
import Testing

@Suite("CMCC provider against a scripted carrier")
struct CMCCProviderTests {
    @Test("MD5 mode: the request is signed correctly and posted to the login path, the number comes back")
    func md5Exchange() async throws {
        let clock = ManualClock(milliseconds: 1_551_151_122_617)
        let transport = ScriptedTransport { request in
            let object = try JSONSerialization.jsonObject(with: Data(request.body)) as! [String: String]
            let expected = Hex.uppercase(try Digest.md5(Array((object["appid"]! + "2.0" + object["msgid"]! + object["systemtime"]! + "0" + object["token"]! + "0123456789ABCDEF0123456789ABCDEF").utf8)))
            guard object["sign"] == expected, object["systemtime"] == "20190226111842617" else {
                return ScriptedTransport.reply(["inresponseto": object["msgid"]!, "resultCode": "103101"])
            }
            return ScriptedTransport.reply(["inresponseto": object["msgid"]!, "resultCode": "103000", "msisdn": "13800138000", "taskId": "TASK"])
        }
        let exchange = await ScriptedCMCC(transport: transport, clock: clock).phoneNumber(app: Fixtures.md5App, token: "STsidX", endpoint: Fixtures.endpoint)
        let outcome = try exchange.result.get()
        #expect(outcome.phoneNumber == "13800138000" && outcome.maskedPhoneNumber == "138****8000")
        let sent = try #require(transport.requests.first)
        #expect(sent.url == "https://carrier.test/unisdk/rsapi/loginTokenValidate")
        #expect(sent.connectTimeoutMs == 500 && sent.timeoutMs == 1500)
        #expect(sent.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("application/json") })
        let call = try #require(exchange.call)
        #expect(call.taskId == "TASK" && call.rawCode == "103000" && call.billable && call.normalizedCode == "ok")
        #expect(call.host == "carrier.test" && call.msgid.count == 32 && call.operation == .phoneNumber)
    }

    @Test("RSA mode: the carrier's hex ciphertext is decrypted with the app's key")
    func rsaExchange() async throws {
        let publicKey = Fixtures.appKey.publicKey
        let transport = ScriptedTransport { request in
            let object = try JSONSerialization.jsonObject(with: Data(request.body)) as! [String: String]
            guard object["encryptionalgorithm"] == "RSA",
                try publicKey.verify(Hex.decode(object["sign"]!)!, for: Array((object["appid"]! + object["token"]!).utf8))
            else { return ScriptedTransport.reply(["inresponseto": object["msgid"]!, "resultCode": "103101"]) }
            let cipher = try publicKey.encrypt(Array("13912345678".utf8))
            return ScriptedTransport.reply(["inresponseto": object["msgid"]!, "resultCode": "103000", "msisdn": Hex.lowercase(cipher)])
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.rsaApp, token: "tok", endpoint: Fixtures.endpoint)
        #expect(try exchange.result.get().phoneNumber == "13912345678")
    }

    @Test("RSA mode with a mismatched key is msisdn_decrypt_failed, billed")
    func rsaWrongKey() async throws {
        let transport = ScriptedTransport { request in
            let cipher = try Fixtures.otherKey.publicKey.encrypt(Array("13912345678".utf8))
            return ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "103000", "msisdn": Hex.uppercase(cipher)])
        }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.rsaApp, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .msisdnDecryptFailed)
        #expect(exchange.call?.billable == true && exchange.call?.normalizedCode == "msisdn_decrypt_failed")
    }

    @Test("verification posts keyType 0 to the tokenValidate path and reads match")
    func verifyExchange() async throws {
        let transport = ScriptedTransport { request in
            let object = try JSONSerialization.jsonObject(with: Data(request.body)) as! [String: [String: String]]
            let header = object["header"]!, body = object["body"]!
            let phoneNum = Hex.uppercase(try Digest.sha256(Array(("13800138000" + "ABCDEF0123456789" + header["timestamp"]!).utf8)))
            let code = body["phoneNum"] == phoneNum ? "000" : "001"
            return ScriptedTransport.reply(["header": ["msgId": header["msgId"]!, "resultCode": code], "body": ["taskId": "VT"]])
        }
        let exchange = await ScriptedCMCC(transport: transport).verify(app: Fixtures.md5App, token: "tok", phoneNumber: "13800138000", endpoint: Fixtures.endpoint)
        #expect(try exchange.result.get() == VerificationOutcome(result: .match, carrierTaskId: "VT"))
        #expect(transport.requests.first?.url == "https://carrier.test/openapi/rs/tokenValidate")
        #expect(exchange.call?.operation == .verify && exchange.call?.billable == true)
    }

    @Test("verification without an appKey fails before any carrier call")
    func verifyWithoutAppKey() async {
        let transport = ScriptedTransport { _ in Issue.record("carrier called"); return ScriptedTransport.reply([:]) }
        let exchange = await ScriptedCMCC(transport: transport).verify(app: Fixtures.rsaApp, token: "tok", phoneNumber: "13800138000", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
        #expect(error.code == .appNotEnabled && exchange.call == nil)
        #expect(error.message.contains("appKey"))
    }

    @Test("transport failures keep their delivery meaning and are recorded as calls")
    func transportFailures() async throws {
        for (kind, expected) in [(TransportFailure.Kind.connectionRefused, PassgateError.Code.carrierUnavailable), (.timeoutAfterSend, .carrierTimeout)] {
            let transport = ScriptedTransport { _ in throw TransportFailure(kind: kind, detail: "curl 7", host: "carrier.test") }
            let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
            guard case .failure(let error) = exchange.result else { Issue.record("accepted"); return }
            #expect(error.code == expected)
            #expect(exchange.call?.rawCode == nil && exchange.call?.billable == false && exchange.call?.normalizedCode == expected.rawValue)
        }
    }

    @Test("an echo of another msgid is carrier_bad_response")
    func wrongEcho() async {
        let transport = ScriptedTransport { _ in ScriptedTransport.reply(["inresponseto": "0000", "resultCode": "103000", "msisdn": "13800138000"]) }
        let exchange = await ScriptedCMCC(transport: transport).phoneNumber(app: Fixtures.md5App, token: "tok", endpoint: Fixtures.endpoint)
        guard case .failure(let error) = exchange.result else { Issue.record("accepted a reply for another request"); return }
        #expect(error.code == .carrierBadResponse)
    }

    @Test("each call gets a fresh msgid and the current Beijing time")
    func freshIdentity() async throws {
        let clock = ManualClock(milliseconds: 1_551_151_122_617)
        let transport = ScriptedTransport { request in
            ScriptedTransport.reply(["inresponseto": ScriptedTransport.msgid(of: request), "resultCode": "104201"])
        }
        let provider = ScriptedCMCC(transport: transport, clock: clock)
        _ = await provider.phoneNumber(app: Fixtures.md5App, token: "a", endpoint: Fixtures.endpoint)
        clock.advance(milliseconds: 1500)
        _ = await provider.phoneNumber(app: Fixtures.md5App, token: "a", endpoint: Fixtures.endpoint)
        let bodies = try transport.requests.map { try Fixtures.object($0.body) }
        #expect(bodies.map { $0["systemtime"] as? String } == ["20190226111842617", "20190226111844117"])
        #expect(bodies[0]["msgid"] as? String != bodies[1]["msgid"] as? String)
    }
}
