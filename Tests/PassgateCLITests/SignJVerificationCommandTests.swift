import Foundation
import Testing

@Suite("passgate sign jverification")
struct SignJVerificationCommandTests {
    static let arguments = ["sign", "jverification", "--app-key", "7d431e42dfa6a6d693ac2d04", "--secret", "5e987ac6d2e04d95a9d8f0d1", "--token", "tok-1"]

    @Test("login: the v1 path, the body with exID, and the Basic header of the documented vector with --show-secret")
    func loginVector() async throws {
        let result = try await ProcessRunner.passgate(Self.arguments + ["--ex-id", "req-7", "--show-secret"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("POST https://api.verification.jpush.cn/v1/web/loginTokenVerify"))
        #expect(result.stdout.contains("Authorization: Basic N2Q0MzFlNDJkZmE2YTZkNjkzYWMyZDA0OjVlOTg3YWM2ZDJlMDRkOTVhOWQ4ZjBkMQ=="))
        #expect(result.stdout.contains(#"{"loginToken":"tok-1","exID":"req-7"}"#))
    }

    @Test("without --show-secret the secret appears only as its length; --phone makes a verify request; v2 has its own path")
    func maskedAndVariants() async throws {
        let masked = try await ProcessRunner.passgate(Self.arguments)
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(!masked.stdout.contains("5e987ac6d2e04d95a9d8f0d1") && !masked.stdout.contains("N2Q0MzFl"))
        #expect(masked.stdout.contains("Master Secret, 24 characters"))
        let verify = try await ProcessRunner.passgate(Self.arguments + ["--phone", "13900001234", "--body-only"])
        let body = try #require(JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: String])
        #expect(body == ["token": "tok-1", "phone": "13900001234", "exID": "pg-sign"])
        let v2 = try await ProcessRunner.passgate(Self.arguments + ["--api-version", "2"])
        #expect(v2.stdout.contains("/v2/web/loginTokenVerify"))
        let wrong = try await ProcessRunner.passgate(Self.arguments + ["--phone", "12345"])
        #expect(wrong.status != 0 && wrong.stderr.contains("--phone"))
    }
}
