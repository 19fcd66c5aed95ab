import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import PassgateCore
import ProviderJVerification
import Testing
import PassgateTestSupport

/// The sandbox's JVerification server, driven by Passgate's own JVerification provider over
/// libcurl: what one signs, the other checks, and every answer the provider maps comes from the
/// sandbox for a real reason.
@Suite("sandbox: JVerification")
struct JVerificationSandboxTests {
    static var key: RSAPrivateKey { TestRSAKeys.primary1024 }
    static let app = JVerificationApp(appId: "jg-shop", appKey: "jg-app-key-0001", masterSecret: "jg-master-secret-0001", privateKey: key)

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(JVerificationEmulator().emulatedApp(app)!)
        configuration.apps.append(JVerificationEmulator().emulatedApp(JVerificationApp(appId: "jg-other", appKey: "jg-app-key-0002", masterSecret: "s2", privateKey: key))!)
    }

    /// Sends a prepared call to the sandbox and reads the reply with the call's own parser.
    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness) async throws -> ProviderAnswer<Value> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body))
        let contentType = response.header("Content-Type")
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: contentType, body: response.body))
    }

    static func context(_ id: String = "req-\(UUID().uuidString.prefix(8))") -> CallContext { CallContext(requestId: id) }

    @Test("login: the number comes back encrypted to the app's key; the token is spent; v2 adds a risk score")
    func login() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "jg-shop", phone: "13900001234")
            let answer = try await Self.exchange(try JVerificationProvider().phoneNumber(app: Self.app, token: token, context: Self.context()), sandbox)
            let outcome = try answer.result.get()
            #expect(outcome.phoneNumber == "13900001234" && outcome.riskScore == nil && answer.rawCode == "8000" && answer.billable)
            #expect(outcome.carrierTaskId.map { $0.count >= 18 && UInt64($0) != nil } == true, "a 64-bit id, digits intact")

            let again = try await Self.exchange(try JVerificationProvider().phoneNumber(app: Self.app, token: token, context: Self.context()), sandbox)
            #expect(again.rawCode == "9003" && again.result.errorCode == .tokenInvalid)

            let v2 = JVerificationApp(appId: "jg-shop", appKey: Self.app.appKey, masterSecret: Self.app.masterSecret, privateKey: Self.key, apiVersion: 2)
            let scored = try await Self.exchange(
                try JVerificationProvider().phoneNumber(app: v2, token: try await sandbox.mint(appId: "jg-shop"), context: Self.context()), sandbox)
            #expect(try scored.result.get().riskScore.map { (0...900).contains($0) } == true)
        }
    }

    @Test("verification: match, mismatch; a login token is the wrong kind")
    func verify() async throws {
        try await withSandbox(Self.configure) { sandbox in
            for (number, expected) in [("13900001234", VerificationResult.match), ("13900009999", .mismatch)] {
                let token = try await sandbox.mint(appId: "jg-shop", phone: "13900001234", product: "verify")
                let call = try JVerificationProvider().verify(app: Self.app, token: token, phoneNumber: number, context: Self.context())
                #expect(try await Self.exchange(call, sandbox).result.get().result == expected)
            }
            let loginToken = try await sandbox.mint(appId: "jg-shop", phone: "13900001234")
            let wrongKind = try await Self.exchange(
                try JVerificationProvider().verify(app: Self.app, token: loginToken, phoneNumber: "13900001234", context: Self.context()), sandbox)
            #expect(wrongKind.rawCode == "9021" && wrongKind.result.errorCode == .tokenInvalid)
        }
    }

    @Test("credentials: a wrong Master Secret is 9011, an unknown appKey too; a token of another app is 9020")
    func credentials() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "jg-shop")
            let wrongSecret = JVerificationApp(appId: "jg-shop", appKey: Self.app.appKey, masterSecret: "wrong", privateKey: Self.key)
            let refused = try await Self.exchange(try JVerificationProvider().phoneNumber(app: wrongSecret, token: token, context: Self.context()), sandbox)
            #expect(refused.rawCode == "9011" && refused.result.errorCode == .signatureRejected)
            // Refused before the token was looked at: it still works.
            let other = JVerificationApp(appId: "jg-other", appKey: "jg-app-key-0002", masterSecret: "s2", privateKey: Self.key)
            let foreign = try await Self.exchange(try JVerificationProvider().phoneNumber(app: other, token: token, context: Self.context()), sandbox)
            #expect(foreign.rawCode == "9020" && foreign.result.errorCode == .appNotEnabled)
        }
    }

    @Test("raw HTTP: no authorization is 9010, GET is 9013, a form body 9015, each as a JSON answer")
    func protocolChecks() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let path = JVerificationRequest.loginPath(apiVersion: 1)
            let unauthenticated = try await sandbox.post(path, Array(#"{"loginToken":"x"}"#.utf8))
            #expect(try object(unauthenticated.body)["code"] as? Int == 9010)
            #expect(try object(try await sandbox.send(.get, path).body)["code"] as? Int == 9013)
            let form = try await sandbox.client.send(CurlHTTPClient.Request(
                method: .post, url: sandbox.baseURL + path,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", JVerificationRequest.authorization(Self.app))],
                body: Array("loginToken=x".utf8)))
            #expect(try object(form.body)["code"] as? Int == 9015)
        }
    }

    @Test("a forced code applies to its provider only; JVerification's quota answers 9018")
    func forcedCodeAndQuota() async throws {
        try await withSandbox({ configuration in
            Self.configure(&configuration)
            configuration.apps[configuration.apps.count - 2].quota = 1
        }) { sandbox in
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "9005", "provider": "jverification"])).status == 204)
            let throttled = try await Self.exchange(
                try JVerificationProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "jg-shop"), context: Self.context()), sandbox)
            #expect(throttled.rawCode == "9005" && throttled.result.errorCode == .rateLimited)
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": ""])).status == 204)
            let broke = try await Self.exchange(
                try JVerificationProvider().phoneNumber(app: Self.app, token: try await sandbox.mint(appId: "jg-shop"), context: Self.context()), sandbox)
            #expect(broke.rawCode == "9018" && broke.result.errorCode == .quotaExhausted, "the quota of 1 went to the throttled call")
            #expect(try await sandbox.send(.put, "/sandbox/faults", json(["resultCode": "9005", "provider": "cucc"])).status == 400)
        }
    }
}

extension Result where Failure == PassgateError {
    var errorCode: PassgateError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
