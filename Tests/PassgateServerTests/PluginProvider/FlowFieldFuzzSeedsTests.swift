import PassgateCore
import PassgateFuzzing
import PassgateProviders
import Testing

/// The reply-fuzz host with providers that read `providerFields`: their fuzz apps carry the fields
/// they require, so their calls are prepared and their success seeds reach a decrypted number.
@Suite("the reply-fuzz host: providers with providerFields")
struct FlowFieldFuzzSeedsTests {
    static func seed(_ id: String, _ name: String) throws -> [UInt8] {
        try #require(try ReplyFuzzHostTests.inputs("Corpus", id).first { $0.name == name }?.bytes, "Fuzz/Corpus/ProviderReply-\(id)/\(name)")
    }

    @Test("Geetest's seeds reach an AES-256 number and a verification match through calls with a flow id")
    func geetest() throws {
        let host = try ReplyFuzzHost(registry: .builtIn, id: "geetest")
        #expect(host.fuzzesVerify)
        #expect(try #require(host.answers(try Self.seed("geetest", "phone-ok"))).phoneNumber.result.get().phoneNumber == "13900001234")
        #expect(try #require(host.answers(try Self.seed("geetest", "verify-match"))?.verify).result.get().result == .match)
    }

    @Test("Getui's seed reaches an AES-128 number through a call with a device id; Getui is not fuzzed for verification")
    func getui() throws {
        let host = try ReplyFuzzHost(registry: .builtIn, id: "getui")
        #expect(!host.fuzzesVerify)
        #expect(try #require(host.answers(try Self.seed("getui", "pn-ok"))).phoneNumber.result.get().phoneNumber == "13900001234")
    }
}
