import Foundation
import PassgateTestSupport
import Testing

/// `passgate sign --tokens`: each line `TOKEN [PHONE] [NAME=VALUE ...]` is one request with its own
/// `providerFields`, as bench/run signs a pool whose flow ids are fresh per request.
@Suite("passgate sign --tokens: a line's own providerFields")
struct SignBatchFieldsTests {
    static func tokensFile(_ text: String) throws -> String {
        let path = "\(try ProcessRunner.temporaryDirectory())/tokens"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("each line's NAME=VALUE words are that request's fields, over --field's; a phone may stand before them")
    func lineFields() async throws {
        let config = try SignFixture.write()
        let tokens = try Self.tokensFile("t1 accessToken=acc1\nt2 13900001234 accessToken=acc2\nt3\n")
        let result = try await SignFixture.sign(config, ["--app-id", "yd-app", "--tokens", tokens, "--field", "accessToken=shared", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map(SignFixture.json)
        let bodies = lines.compactMap { $0["body"] as? String }
        #expect(bodies.count == 3)
        #expect(lines.map { $0["operation"] as? String } == ["phone_number", "verify", "phone_number"])
        for (body, accessToken) in zip(bodies, ["acc1", "acc2", "shared"]) {
            let form = Set(body.split(separator: "&").map(String.init))
            #expect(form.contains("accessToken=\(accessToken)"), "\(body)")
        }
        #expect(lines[1]["phoneNumber"] as? String == "13900001234")
    }

    @Test("a line word that is neither the phone nor NAME=VALUE exits 64 naming the line")
    func badWord() async throws {
        let config = try SignFixture.write()
        let tokens = try Self.tokensFile("t1 accessToken=acc1\nt2 13900001234 stray\n")
        let result = try await SignFixture.sign(config, ["--app-id", "yd-app", "--tokens", tokens, "--json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--tokens line 2") && result.stderr.contains("NAME=VALUE"), "\(result.stderr)")
        let missing = try await SignFixture.sign(config, ["--app-id", "yd-app", "--tokens", try Self.tokensFile("t1\n"), "--json"])
        #expect(missing.status == 64 && missing.stderr.contains("--field accessToken"), "\(missing.stderr)")
    }
}
