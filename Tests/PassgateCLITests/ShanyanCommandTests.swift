import Foundation
import Testing

@Suite("passgate sign shanyan and decrypt-msisdn --shanyan-app-key")
struct ShanyanCommandTests {
    @Test("sign shanyan prints the form body, the signed string and the documented sign")
    func signVector() async throws {
        let result = try await ProcessRunner.passgate(["sign", "shanyan", "--app-id", "abcd1234", "--app-key", "shanyanAppKey123", "--token", "A2-xyz"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("POST https://wsflash.253.com/open/flashsdk/mobile-query"))
        #expect(result.stdout.contains("Content-Type: application/x-www-form-urlencoded"))
        #expect(result.stdout.contains("appId=abcd1234&token=A2-xyz&sign=580629ea2f5153af96bf1353300aeae2f6c008c777a38c470d3b5fbfce4e4640"))
        #expect(result.stdout.contains("signed string: appIdabcd1234tokenA2-xyz"))
        let verify = try await ProcessRunner.passgate(["sign", "shanyan", "--app-id", "abcd1234", "--app-key", "shanyanAppKey123", "--token", "A2-xyz",
                                                        "--phone", "13900001234", "--upper", "--body-only"])
        #expect(verify.stdout.contains("mobile=13900001234") && verify.stdout.contains("&sign=") && !verify.stdout.contains("encryptType"))
    }

    @Test("decrypt-msisdn decrypts Shanyan's AES form with the appKey; another appKey is a data error that names no number")
    func decryptAES() async throws {
        let result = try await ProcessRunner.passgate(["decrypt-msisdn", "--shanyan-app-key", "shanyanAppKey123", "07186da582239722ab1efde384d86834"])
        #expect(result.status == 0 && result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "13900001234", "\(result.stderr)")
        let wrong = try await ProcessRunner.passgate(["decrypt-msisdn", "--shanyan-app-key", "another-app-key!", "07186da582239722ab1efde384d86834"])
        #expect(wrong.status != 0 && wrong.stderr.contains("appKey") && !wrong.stderr.contains("13900001234"), "\(wrong.stderr)")
        let neither = try await ProcessRunner.passgate(["decrypt-msisdn", "07186da582239722ab1efde384d86834"])
        #expect(neither.status != 0 && neither.stderr.contains("--shanyan-app-key"))
    }
}

@Suite("passgate sign aliyun")
struct SignAliyunCommandTests {
    @Test("prints the documented vector's signature and string to sign, and the form body that carries them")
    func vector() async throws {
        let result = try await ProcessRunner.passgate([
            "sign", "aliyun", "--access-key-id", "testid", "--secret", "testsecret", "--token", "Dfafdafad5422abc", "--out-id", "22345",
            "--nonce", "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf", "--timestamp", "2024-01-01T12:00:00Z",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("POST https://dypnsapi.aliyuncs.com/"))
        #expect(result.stdout.contains("Signature: 8QhUIVSXyKvK3ldbve6bD7MhPUQ="))
        #expect(result.stdout.contains("Signature=8QhUIVSXyKvK3ldbve6bD7MhPUQ%3D"))
        #expect(result.stdout.contains("string to sign: POST&%2F&AccessKeyId%3Dtestid%26AccessToken%3DDfafdafad5422abc"))
        #expect(!result.stdout.contains("testsecret"))
    }
}
