import OpenSSLCrypto
import Testing

/// One loaded key is shared by every request of an app: it must be safe to use from many tasks
/// (and so many threads) at once, and OpenSSL's per-thread error queue must not mix results.
@Suite("Concurrent use")
struct RSAConcurrencyTests {
    static let taskCount = 1_000

    static func phone(_ index: Int) -> [UInt8] {
        let digits = String(index)
        return Array(("138" + String(repeating: "0", count: 8 - digits.count) + digits).utf8)
    }

    @Test("one 2048-bit private key signs and decrypts from 1,000 concurrent tasks")
    func sharedPrivateKey() async throws {
        let material = try await RSAFixtures.material(bits: 2048)
        let key = try RSAPrivateKey(text: material.pkcs8PEM)
        // Verification and encryption use a separately loaded public key: nothing shared with `key`.
        let verifier = try RSAPublicKey(text: material.publicPEM)
        let messages = (0..<Self.taskCount).map { Array("300011111111STsid\($0)".utf8) }
        let plaintexts = (0..<Self.taskCount).map(Self.phone)
        let ciphertexts = try plaintexts.map { try verifier.encrypt($0) }

        let results = try await withThrowingTaskGroup(of: (Int, [UInt8], [UInt8]).self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    (index, try key.sign(messages[index], digest: .sha256), try key.decrypt(ciphertexts[index]))
                }
            }
            var results = [(signature: [UInt8], plaintext: [UInt8])](repeating: ([], []), count: Self.taskCount)
            for try await (index, signature, plaintext) in group {
                results[index] = (signature, plaintext)
            }
            return results
        }

        var badSignatures: [Int] = []
        var badPlaintexts: [Int] = []
        for index in 0..<Self.taskCount {
            if try !verifier.verify(results[index].signature, for: messages[index]) { badSignatures.append(index) }
            if results[index].plaintext != plaintexts[index] { badPlaintexts.append(index) }
        }
        #expect(badSignatures.isEmpty, "\(badSignatures.count) signatures failed to verify")
        #expect(badPlaintexts.isEmpty, "\(badPlaintexts.count) plaintexts did not match")
        // Signatures are deterministic: spot-check against serial signing.
        for index in stride(from: 0, to: Self.taskCount, by: 97) {
            #expect(try key.sign(messages[index]) == results[index].signature)
        }
    }

    @Test("public keys (SubjectPublicKeyInfo and PKCS#1 loaded) verify and encrypt from 1,000 concurrent tasks", arguments: [
        PublicKeyFormat.spkiPEM, .pkcs1PEM,
    ])
    func sharedPublicKey(format: PublicKeyFormat) async throws {
        let material = try await RSAFixtures.material(bits: 2048)
        let signer = try RSAPrivateKey(text: material.pkcs1PEM)
        let publicKey = try RSAPublicKey(text: format.text(of: material))
        let messages = (0..<Self.taskCount).map { Array("message #\($0)".utf8) }
        let signatures = try messages.map { try signer.sign($0, digest: .md5) }

        let results = try await withThrowingTaskGroup(of: (Int, Bool, Bool, [UInt8]).self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    let good = try publicKey.verify(signatures[index], for: messages[index], digest: .md5)
                    // Another task's signature must not verify for this message.
                    let crossed = try publicKey.verify(signatures[(index + 1) % Self.taskCount], for: messages[index], digest: .md5)
                    return (index, good, crossed, try publicKey.encrypt(Self.phone(index)))
                }
            }
            var results = [(good: Bool, crossed: Bool, ciphertext: [UInt8])](repeating: (false, true, []), count: Self.taskCount)
            for try await (index, good, crossed, ciphertext) in group {
                results[index] = (good, crossed, ciphertext)
            }
            return results
        }
        #expect(results.filter { !$0.good }.isEmpty, "every genuine signature verifies")
        #expect(results.filter { $0.crossed }.isEmpty, "no crossed signature verifies")
        var badCiphertexts = 0
        for index in stride(from: 0, to: Self.taskCount, by: 7) where try signer.decrypt(results[index].ciphertext) != Self.phone(index) {
            badCiphertexts += 1
        }
        #expect(badCiphertexts == 0)
    }

    @Test("1,000 concurrent SHA-256, MD5 and HMAC-SHA256 computations match a serial reference")
    func concurrentDigests() async throws {
        let inputs = (0..<Self.taskCount).map { Array("13800138000ABCDEF0123456789\($0)".utf8) + [UInt8](repeating: UInt8($0 % 256), count: $0) }
        let keys = (0..<Self.taskCount).map { Array("appKey-\($0 % 17)".utf8) }
        let reference = try (0..<Self.taskCount).map {
            (try Digest.sha256(inputs[$0]), try Digest.md5(inputs[$0]), try Digest.hmacSHA256(key: keys[$0], data: inputs[$0]))
        }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [UInt8], [UInt8], [UInt8]).self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    (
                        index, try Digest.sha256(inputs[index]), try Digest.md5(inputs[index]),
                        try Digest.hmacSHA256(key: keys[index], data: inputs[index])
                    )
                }
            }
            var results = [([UInt8], [UInt8], [UInt8])](repeating: ([], [], []), count: Self.taskCount)
            for try await (index, sha, md5, hmac) in group {
                results[index] = (sha, md5, hmac)
            }
            return results
        }
        let mismatches = (0..<Self.taskCount).filter {
            concurrent[$0].0 != reference[$0].0 || concurrent[$0].1 != reference[$0].1 || concurrent[$0].2 != reference[$0].2
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches")
        #expect(Set(reference.map { Hex.uppercase($0.0) }).count == Self.taskCount, "distinct inputs, distinct digests")
    }

    @Test("concurrent failures carry only their own OpenSSL errors while successes stay correct")
    func concurrentFailuresDoNotCrossTalk() async throws {
        let key = try await RSAFixtures.privateKey(bits: 1024)
        let plaintext = Array("13800138000".utf8)
        let ciphertext = try key.publicKey.encrypt(plaintext)
        let garbageDER = Array("definitely not DER".utf8)
        let aboveModulus = [UInt8](repeating: 0xFF, count: 128)
        // Serial references, each made on a queue that the operation clears itself.
        let loadFailure = try #require(throws: OpenSSLError.self) { try RSAPublicKey(der: garbageDER) }
        let decryptFailure = try #require(throws: OpenSSLError.self) { try key.decrypt(aboveModulus) }
        let loadErrors = loadFailure.openSSLErrors
        let decryptErrors = decryptFailure.openSSLErrors
        #expect(!loadErrors.isEmpty)
        #expect(!decryptErrors.isEmpty)
        #expect(Set(loadErrors).isDisjoint(with: decryptErrors))

        enum Outcome: Sendable { case decrypted([UInt8]), failed(OpenSSLError), unexpected(String) }
        let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    do {
                        switch index % 3 {
                        case 0: return (index, .decrypted(try key.decrypt(ciphertext)))
                        case 1: _ = try RSAPublicKey(der: garbageDER)
                        default: _ = try key.decrypt(aboveModulus)
                        }
                        return (index, .decrypted([]))
                    } catch let error as OpenSSLError {
                        return (index, .failed(error))
                    } catch {
                        return (index, .unexpected("\(error)"))
                    }
                }
            }
            var outcomes: [Int: Outcome] = [:]
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var wrong: [String] = []
        for index in 0..<Self.taskCount {
            switch (index % 3, outcomes[index]) {
            case (0, .decrypted(let bytes)) where bytes == plaintext: break
            case (1, .failed(let error)) where error.operation == .keyLoad && error.openSSLErrors == loadErrors: break
            case (2, .failed(let error)) where error.operation == .decrypt && error.openSSLErrors == decryptErrors: break
            case (_, let outcome): wrong.append("#\(index): \(String(describing: outcome))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong outcomes, first: \(wrong.first ?? "")")
    }
}
