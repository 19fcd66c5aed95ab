import Foundation
import OpenSSLCrypto
import PassgateCore
import PassgateTestSupport
import ProviderJVerification
import Testing

/// The number as JiGuang sends it, made by the `openssl` command line: RSA PKCS#1 v1.5 to the
/// uploaded public key, base64. Passgate's provider must read it.
@Suite("JVerification against the openssl command line")
struct JVerificationOpenSSLTests {
    @Test("a number openssl encrypted to the app's public key is decrypted", arguments: [1024, 2048])
    func opensslCiphertextDecrypts(bits: Int) async throws {
        let key = bits == 1024 ? TestRSAKeys.primary1024 : TestRSAKeys.primary
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-jv-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try key.publicKey.pem().write(toFile: "\(directory)/pub.pem", atomically: true, encoding: .utf8)
        let encrypted = try await Subprocess.run(
            "/usr/bin/openssl", ["pkeyutl", "-encrypt", "-pubin", "-inkey", "\(directory)/pub.pem", "-pkeyopt", "rsa_padding_mode:pkcs1"],
            stdin: Array("13912345678".utf8))
        try #require(encrypted.status == 0, "\(encrypted.stderrText)")
        #expect(encrypted.stdout.count == bits / 8)

        let app = JVerificationApp(appId: "jg-shop", appKey: "k", masterSecret: "s", privateKey: key)
        let call = try JVerificationProvider().phoneNumber(app: app, token: "tok", context: CallContext(requestId: "r"))
        let body = #"{"id": 1, "code": 8000, "phone": "\#(Data(encrypted.stdout).base64EncodedString())"}"#
        let answer = call.interpret(CarrierHTTPReply(status: 200, contentType: "application/json", body: Array(body.utf8)))
        #expect(try answer.result.get().phoneNumber == "13912345678")
    }
}
