import COpenSSL
import Foundation
import OpenSSLCrypto
import Testing

/// OpenSSL keeps errors in a per-thread queue. Every operation must start from a clean queue
/// and leave one behind, so that one failure's entries never show up in another's report.
/// Each test is synchronous, so it runs on one thread from start to end.
@Suite("OpenSSL error queue hygiene")
struct OpenSSLErrorQueueTests {
    /// Valid base64 that is no key DER: every loader fails on it inside OpenSSL's decoders.
    static let garbageKeyText = Data("definitely not a DER key".utf8).base64EncodedString()

    /// A ciphertext above the modulus: OpenSSL refuses it with rsa-routine errors, on every 3.x.
    static func decryptFailure(_ key: RSAPrivateKey) throws -> OpenSSLError {
        try #require(throws: OpenSSLError.self) { try key.decrypt([UInt8](repeating: 0xFF, count: key.bits / 8)) }
    }

    @Test("a failed private key load reports OpenSSL's own reasons")
    func privateKeyLoadKeepsOpenSSLErrors() throws {
        let error = try #require(throws: OpenSSLError.self) { try RSAPrivateKey(text: Self.garbageKeyText) }
        #expect(error.operation == .keyLoad)
        #expect(!error.openSSLErrors.isEmpty, "d2i_AutoPrivateKey's decoder errors should be in the report")
        #expect(error.openSSLErrors.allSatisfy { $0.hasPrefix("error:") })
    }

    @Test("operations leave the thread's queue empty: failures, fallbacks that succeed, verifications that say false")
    func operationsLeaveQueueEmpty() async throws {
        let material = try await RSAFixtures.material(bits: 1024)
        _ = #expect(throws: OpenSSLError.self) { try RSAPrivateKey(text: Self.garbageKeyText) }
        #expect(ERR_peek_error() == 0, "failed private key load")
        _ = #expect(throws: OpenSSLError.self) { try RSAPublicKey(text: Self.garbageKeyText) }
        #expect(ERR_peek_error() == 0, "failed public key load")
        _ = #expect(throws: OpenSSLError.self) { try RSAPrivateKey(text: Data(material.publicDER).base64EncodedString()) }
        #expect(ERR_peek_error() == 0, "public DER offered as private")
        let key = try await RSAFixtures.privateKey(bits: 1024)
        _ = try Self.decryptFailure(key)
        #expect(ERR_peek_error() == 0, "failed decrypt")

        // PKCS#1 public DER loads only after SubjectPublicKeyInfo parsing has failed and queued errors.
        let publicKey = try RSAPublicKey(text: material.publicPKCS1PEM)
        #expect(ERR_peek_error() == 0, "successful load after a failed first attempt")
        // A wrong signature is `false`, but OpenSSL queues why.
        #expect(try !publicKey.verify([UInt8](repeating: 0x01, count: 128), for: Array("m".utf8)))
        #expect(ERR_peek_error() == 0, "verification that returned false")
    }

    @Test("the same failure twice reports the same entries, not an accumulation")
    func sameFailureTwice() throws {
        for load in [
            { _ = try RSAPrivateKey(text: Self.garbageKeyText) },
            { _ = try RSAPublicKey(text: Self.garbageKeyText) },
        ] as [() throws -> Void] {
            let first = try #require(throws: OpenSSLError.self) { try load() }
            let second = try #require(throws: OpenSSLError.self) { try load() }
            #expect(!first.openSSLErrors.isEmpty)
            #expect(first.openSSLErrors == second.openSSLErrors)
        }
    }

    @Test("after a failed key load, a success succeeds and the next failure reports only its own errors")
    func failureSuccessFailure() async throws {
        let key = try await RSAFixtures.privateKey(bits: 2048)
        // Reference: the decrypt failure on its own.
        let isolated = try Self.decryptFailure(key)

        for loadFailure in [
            { _ = try RSAPrivateKey(text: Self.garbageKeyText) },
            { _ = try RSAPublicKey(text: Self.garbageKeyText) },
        ] as [() throws -> Void] {
            let first = try #require(throws: OpenSSLError.self) { try loadFailure() }
            #expect(first.operation == .keyLoad)
            #expect(!first.openSSLErrors.isEmpty, "the comparison below is only meaningful with entries: \(first)")

            let message = Array("after a failure".utf8)
            let signature = try key.sign(message)
            #expect(try key.publicKey.verify(signature, for: message))
            #expect(try key.decrypt(key.publicKey.encrypt(message)) == message)

            let second = try Self.decryptFailure(key)
            #expect(second.operation == .decrypt)
            #expect(!second.openSSLErrors.isEmpty)
            #expect(Set(second.openSSLErrors).isDisjoint(with: first.openSSLErrors), "\(second.openSSLErrors) vs \(first.openSSLErrors)")
            #expect(second.openSSLErrors == isolated.openSSLErrors)
        }
    }

    @Test("entries left on the queue by other OpenSSL users on this thread do not leak into our results")
    func foreignEntriesIgnored() async throws {
        let key = try await RSAFixtures.privateKey(bits: 1024)
        let isolated = try Self.decryptFailure(key)

        // Someone else's failed call, its errors left behind on this thread.
        func pollute() {
            let bytes: [UInt8] = [0x30, 0x82, 0xFF, 0xFF]
            bytes.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                #expect(d2i_PUBKEY(nil, &cursor, buffer.count) == nil)
            }
            #expect(ERR_peek_error() != 0, "the pollution must be real for this test to mean anything")
        }

        pollute()
        let message = Array("polluted".utf8)
        #expect(try key.publicKey.verify(key.sign(message), for: message))
        #expect(ERR_peek_error() == 0)

        pollute()
        let polluted = try Self.decryptFailure(key)
        #expect(polluted.openSSLErrors == isolated.openSSLErrors)

        pollute()
        #expect(try Digest.sha256(message).count == 32)
        #expect(ERR_peek_error() == 0)
    }

    @Test("OpenSSLError describes operation, reason and OpenSSL's entries")
    func errorDescription() throws {
        let plain = OpenSSLError(operation: .sign, reason: "because")
        #expect(plain.description == "sign: because")
        let detailed = OpenSSLError(operation: .decrypt, reason: "bad", openSSLErrors: ["error:1", "error:2"])
        #expect(detailed.description == "decrypt: bad [error:1; error:2]")
        #expect(plain != detailed)
        #expect(plain == OpenSSLError(operation: .sign, reason: "because"))
    }
}
