import Foundation
import OpenSSLCrypto
import Testing

@Suite("HMACSHA256Key: one keyed template, pooled contexts restarted per message")
struct HMACKeyTests {
    @Test("a loaded key gives the RFC 4231 results", arguments: DigestKnownAnswerTests.rfc4231)
    func rfc4231(vector: DigestKnownAnswerTests.HMACVector) throws {
        let mac = try HMACSHA256Key(key: vector.key).authenticationCode(for: vector.data)
        let expected = try #require(Hex.decode(vector.hex))
        #expect(mac.count == 32)
        #expect(Array(mac.prefix(expected.count)) == expected)
    }

    @Test("one key reused for many messages gives what keying afresh gives for each, and what openssl's CLI gives")
    func reuseMatchesOneShotAndCLI() async throws {
        let keyBytes = try SecureRandom.bytes(count: 32)
        let key = try HMACSHA256Key(key: keyBytes)
        let messages = try (0..<50).map { try SecureRandom.bytes(count: $0 * 7) } + [Array("c\u{1F}a\u{1F}phone_number\u{1F}STsidTOKEN".utf8)]
        for message in messages {
            #expect(try key.authenticationCode(for: message) == Digest.hmacSHA256(key: keyBytes, data: message))
        }
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("message.bin", messages[10])
            let output = try await cli.run(["mac", "-digest", "SHA256", "-macopt", "hexkey:\(Hex.lowercase(keyBytes))", "-in", "message.bin", "HMAC"])
            let cliHex = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            #expect(cliHex == Hex.lowercase(try key.authenticationCode(for: messages[10])))
        }
    }

    @Test("many tasks sharing one key, more than the pool keeps, all get the right codes")
    func concurrentUse() async throws {
        let keyBytes = Array("replay-cache key".utf8)
        let key = try HMACSHA256Key(key: keyBytes)
        let inputs = (0..<64).map { Array("token-\($0)".utf8) }
        let expected = try inputs.map { try Digest.hmacSHA256(key: keyBytes, data: $0) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<24 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        let index = (worker * 31 + round) % inputs.count
                        if (try? key.authenticationCode(for: inputs[index])) != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
