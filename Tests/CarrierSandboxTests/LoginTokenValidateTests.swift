import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import Testing

/// `loginTokenValidate` over real HTTP: ProviderCMCC builds and signs, the sandbox judges.
@Suite("loginTokenValidate")
struct LoginTokenValidateTests {
    @Test func md5ExchangeReturnsTheMintedNumberAndTheTokenWorksOnce() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let first = try await sandbox.login(token: token)
            #expect(first.resultCode == "103000")
            #expect(first.msisdn == Fixtures.phone)
            #expect(first.taskId?.count == 32)
            #expect(first.taskId.map { Hex.decode($0) != nil } == true)

            let second = try await sandbox.login(token: token)
            #expect(second.resultCode == "104201")
            #expect(second.msisdn == nil)
        }
    }

    @Test func publishedMD5VectorIsAcceptedByTheSandbox() async throws {
        try await withSandbox(clockMs: Fixtures.vectorTimeMs) { sandbox in
            // The MD5 login vector of docs/cmcc.md, byte for byte; the sandbox clock is pinned at its systemtime.
            let token = "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ"
            try sandbox.sandbox.registerToken(token, appId: "300011111111", phoneNumber: Fixtures.phone)
            let request = try CMCCLoginRequest(
                appId: "300011111111", token: token, signing: .md5(secret: "0123456789ABCDEF0123456789ABCDEF"),
                msgid: "bed1dc7f6cd645b9be9006ae08040c93", systemtime: "20190226111842617"
            )
            #expect(request.json["sign"] == "D377B8E67869D5CEF6ECC55A59CA55FD")
            #expect(sandbox.beijingNow == "20190226111842617")
            let reply = try await sandbox.login(request)
            #expect(reply.resultCode == "103000")
            #expect(reply.msisdn == Fixtures.phone)
        }
    }

    @Test func lowercaseMD5SignIsAccepted() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let request = try sandbox.loginRequest(token: token)
            let body = request.json.bytes
            let lowered = String(decoding: body, as: UTF8.self)
                .replacingOccurrences(of: request.json["sign"]!, with: request.json["sign"]!.lowercased())
            let response = try await sandbox.post(CMCCLoginRequest.path, Array(lowered.utf8))
            #expect(try object(response.body)["resultCode"] as? String == "103000")
        }
    }

    @Test func rsaModeMsisdnDecryptsWithTheAppsPrivateKey() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(appId: Fixtures.rsaAppId)
            let reply = try await sandbox.login(token: token, appId: Fixtures.rsaAppId, signing: Fixtures.rsaSigning)
            #expect(reply.resultCode == "103000")
            let msisdn = try #require(reply.msisdn)
            #expect(msisdn != Fixtures.phone)
            #expect(msisdn == msisdn.uppercased() && msisdn.count == 512)
            #expect(try MSISDN.decrypt(msisdn, with: Fixtures.rsaKey) == Fixtures.phone)
        }
    }

    @Test func wrongSecretIsASignatureError() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let reply = try await sandbox.login(token: token, signing: .md5(secret: "FEDCBA9876543210FEDCBA9876543210"))
            #expect(reply.resultCode == "103101")
            // A rejected signature does not spend the token.
            #expect(try await sandbox.login(token: token).resultCode == "103000")
        }
    }

    @Test func rsaSignFromAnotherKeyIsASignatureError() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(appId: Fixtures.rsaAppId)
            let reply = try await sandbox.login(token: token, appId: Fixtures.rsaAppId, signing: .rsa(privateKey: Fixtures.strangerKey))
            #expect(reply.resultCode == "103101")
        }
    }

    @Test func rsaModeWithoutARegisteredKeyIsASignatureError() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let reply = try await sandbox.login(token: token, signing: Fixtures.rsaSigning)
            #expect(reply.resultCode == "103101")
        }
    }

    @Test func tokenOfAnotherAppIsSourceidInvalidAndSpent() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(appId: Fixtures.otherAppId)
            #expect(try await sandbox.login(token: token).resultCode == "103133")
            #expect(try await sandbox.login(token: token, appId: Fixtures.otherAppId).resultCode == "104201")
        }
    }

    @Test func verificationTokenUsedForLoginLacksPermission() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(product: "verify")
            #expect(try await sandbox.login(token: token).resultCode == "105018")
        }
    }

    @Test func tokenExpiresAfterItsLifetime() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            sandbox.clock.advance(milliseconds: 121_000)
            #expect(try await sandbox.login(token: token).resultCode == "104201")
        }
    }

    @Test func tokenIsStillValidJustBeforeItsLifetimeEnds() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            sandbox.clock.advance(milliseconds: 119_000)
            #expect(try await sandbox.login(token: token).resultCode == "103000")
        }
    }

    @Test func exhaustedQuotaIsPackageUsedUp() async throws {
        try await withSandbox({ $0.apps[0].quota = 0 }) { sandbox in
            let token = try await sandbox.mint()
            #expect(try await sandbox.login(token: token).resultCode == "105312")
            #expect(try await sandbox.login(token: token).resultCode == "104201")
        }
    }

    @Test func quotaIsChargedPerSuccessfulCall() async throws {
        try await withSandbox({ $0.apps[0].quota = 1 }) { sandbox in
            let first = try await sandbox.login(token: sandbox.mint())
            let second = try await sandbox.login(token: sandbox.mint())
            #expect(first.resultCode == "103000")
            #expect(second.resultCode == "105312")
        }
    }

    @Test func disabledLoginIsNotAuthorized() async throws {
        try await withSandbox({ $0.apps[0].loginEnabled = false }) { sandbox in
            let token = try await sandbox.mint()
            #expect(try await sandbox.login(token: token).resultCode == "105019")
        }
    }

    @Test func emptyAndMalformedTokensHaveTheirOwnCodes() async throws {
        try await withSandbox { sandbox in
            let empty = try await sandbox.login(token: "")
            let malformed = try await sandbox.login(token: "not-a-token")
            let unknown = try await sandbox.login(token: "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ")
            #expect(empty.resultCode == "103811")
            #expect(malformed.resultCode == "103113")
            #expect(unknown.resultCode == "104201")
        }
    }
}
