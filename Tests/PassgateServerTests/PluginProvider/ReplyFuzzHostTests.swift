import Foundation
import PassgateCore
import PassgateFuzzing
import PassgateProviders
import Testing

/// The reply-fuzz host (what `Fuzz/run` runs for every registered provider) in the normal test run:
/// every built-in provider's committed seeds and findings, the test-only echo provider through its
/// own `+Fuzz.swift`, and a provider that leaks, which the host must catch.
@Suite("the reply-fuzz host")
struct ReplyFuzzHostTests {
    static let registry = ProviderRegistry.builtIn.adding([EchoProvider(), LeakyProvider()])

    /// `Fuzz/<folder>/ProviderReply-<id>/`'s files, from the checkout these tests were built from.
    static func inputs(_ folder: String, _ id: String) throws -> [(name: String, bytes: [UInt8])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent("Fuzz/\(folder)/ProviderReply-\(id)")
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    @Test("every built-in provider has a fuzz entry, and a fuzz folder of seeds")
    func everyProviderIsFuzzed() throws {
        #expect(ReplyFuzzHost.providerIDs(in: .builtIn) == ProviderRegistry.builtIn.ids)
        for id in ProviderRegistry.builtIn.ids {
            #expect(try Self.inputs("Corpus", id).count >= 5, "Fuzz/Corpus/ProviderReply-\(id) has too few seeds")
        }
    }

    @Test("the seeds and findings of every built-in provider keep every invariant", arguments: ProviderRegistry.builtIn.ids)
    func seedsPass(id: String) throws {
        let host = try ReplyFuzzHost(registry: Self.registry, id: id)
        for (name, bytes) in try Self.inputs("Corpus", id) + Self.inputs("Findings", id) {
            #expect(host.check(bytes) == [], "\(id) \(name)")
        }
    }

    @Test("CMCC's seeds answer the prepared calls: their msgid is replaced by the call's, so success stays reachable")
    func cmccSuccessIsReachable() throws {
        let host = try ReplyFuzzHost(registry: Self.registry, id: "cmcc")
        #expect(host.fuzzesVerify)
        let seeds = Dictionary(uniqueKeysWithValues: try Self.inputs("Corpus", "cmcc").map { ($0.name, $0.bytes) })
        let loginSeed = try #require(seeds["login-success"])
        let verifySeed = try #require(seeds["verify-match"])
        let login = try #require(host.answers(loginSeed))
        #expect(try login.phoneNumber.result.get().phoneNumber == "13800138000")
        let verify = try #require(host.answers(verifySeed)?.verify)
        #expect(try verify.result.get().result == .match)
        let upperCase = [0xE1] + loginSeed.dropFirst()  // 'a' with bit 7: the echo in upper case
        let upperCaseLogin = try #require(host.answers(upperCase))
        #expect(try upperCaseLogin.phoneNumber.result.get().phoneNumber == "13800138000")
    }

    @Test("CMCC's verify findings are never a match: an empty code is refused as a reply, a spaced one is read as an unknown code")
    func cmccVerifyFindingsAreNoMatch() throws {
        let host = try ReplyFuzzHost(registry: Self.registry, id: "cmcc")
        let findings = Dictionary(uniqueKeysWithValues: try Self.inputs("Findings", "cmcc").map { ($0.name, $0.bytes) })
        let emptyInput = try #require(findings["verify-empty-resultcode-is-match"])
        let spacedInput = try #require(findings["verify-spaced-short-code-is-match"])
        let empty = try #require(host.answers(emptyInput)?.verify)
        #expect(empty.rawCode == nil)
        #expect(Self.errorCode(empty) == .carrierBadResponse)
        // The spaced code gets past the echo check (the host put our msgid in) to the padded-code rule.
        let spaced = try #require(host.answers(spacedInput)?.verify)
        #expect(spaced.rawCode == "00")  // trimmed, and not padded to "000": a string code is taken as sent
        #expect(Self.errorCode(spaced) == .carrierError)
    }

    /// The error code of a failed answer, nil for a success.
    static func errorCode<Value>(_ answer: ProviderAnswer<Value>) -> PassgateError.Code? {
        guard case .failure(let error) = answer.result else { return nil }
        return error.code
    }

    @Test("the echo provider is fuzzed through its own entry, on phone-number replies only")
    func echo() throws {
        let host = try ReplyFuzzHost(registry: Self.registry, id: EchoProvider.id)
        #expect(!host.fuzzesVerify)
        let inputs = [
            #"a{"code":"0","number":"13800138000","ticket":"t-1"}"#, #"a{"code":"0","number":"12345"}"#, #"f{"code":"9"}"#,
            #"a{"code":"7"}"#, "n<html>502</html>", #"a{"code":"0","#, "a", "",
        ]
        for input in inputs { #expect(host.check(Array(input.utf8)) == [], "\(input)") }
        #expect(try host.answers(Array(inputs[0].utf8))?.phoneNumber.result.get().phoneNumber == "13800138000")
    }

    @Test("an error quoting the reply is caught: the number's digits, and the token")
    func leaksAreCaught() throws {
        let host = try ReplyFuzzHost(registry: Self.registry, id: LeakyProvider.id)
        let problems = host.check(Array(#"a{"msisdn":"13800138000"}"#.utf8))
        #expect(problems.contains { $0.contains("run of 11 digits") }, "\(problems)")
        #expect(host.check(Array("a\(ReplyFuzzHost.token)".utf8)).contains { $0.contains("contains the token") })
        let quiet = try ReplyFuzzHost(registry: Self.registry, id: LeakyProvider.id, checkRedaction: false)
        #expect(quiet.check(Array(#"a{"msisdn":"13800138000"}"#.utf8)) == [])
    }

    @Test("an unknown provider id is refused with the registered ones")
    func unknownProvider() {
        #expect(throws: ReplyFuzzHost.Refusal.self) { try ReplyFuzzHost(registry: Self.registry, id: "nope") }
        do {
            _ = try ReplyFuzzHost(registry: .builtIn, id: "nope")
        } catch {
            #expect(error.description.contains("provider nope is not registered (registered: aliyun, cmcc"))
        }
    }
}

/// A provider whose errors quote the reply body: what the host's generic checks exist to catch.
private struct LeakyProvider: ReplyFuzzing {
    static let id = "leaky"
    struct App: ProviderApp {
        let appId = "leaky"
        var fingerprint: [UInt8] { [] }
    }

    var id: String { Self.id }
    var appKeys: [String] { [] }
    func readApp(_ fields: any AppFieldReader) -> (any ProviderApp)? { App() }
    func fuzzApp() throws -> FuzzApp { FuzzApp(app: App(), secrets: []) }

    func phoneNumber(app: any ProviderApp, token: String, context: CallContext) throws(PassgateError) -> PreparedCall<PhoneNumberOutcome> {
        let request = ProviderRequest(path: "/", headers: [], body: Array(token.utf8), msgid: context.requestId)
        return PreparedCall(provider: id, operation: .phoneNumber, request: request) { reply in
            .failure(PassgateError(.carrierBadResponse, .reply(.malformedField("body", detail: String(decoding: reply.body, as: UTF8.self)))))
        }
    }

    func verify(app: any ProviderApp, token: String, phoneNumber: String, context: CallContext) throws(PassgateError) -> PreparedCall<VerificationOutcome> {
        throw PassgateError(.appNotEnabled, .local("leaky does not verify"), message: "no")
    }
}
