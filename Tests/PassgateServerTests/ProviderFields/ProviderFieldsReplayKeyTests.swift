import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateState
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The replay key with `providerFields`: unchanged for requests without single-use fields (a
/// rolling upgrade finds the entries the previous version wrote), and one key per set of
/// single-use values, however the values are spelled.
@Suite("providerFields in the replay key")
struct ProviderFieldsReplayKeyTests {
    static let processId = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

    static func exchange() throws -> OneTimeTokenExchange {
        try OneTimeTokenExchange(
            gateway: OneTimeTokenTests.CountingGateway { _ in .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T")) },
            store: MemoryStateStore(), replayKey: Array(repeating: 1, count: 32), ttlMs: 300_000,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
    }

    static func fields(_ sent: [String: String], _ declared: [ProviderField] = FlowProvider.fields) throws -> ProviderFields {
        try ProviderFields(checking: sent, against: declared, provider: "flow")
    }

    @Test("without single-use fields the key is the previous version's, byte for byte")
    func keysOfEarlierVersions() throws {
        let exchange = try Self.exchange()
        // Computed the old way, outside Passgate:
        //   printf 'c\x1fa\x1fphone_number\x1fSTsidTOKEN' | openssl mac -digest SHA256 -macopt hexkey:0101…01 (32 bytes) HMAC
        let previous = "959f637a0de82a880fcb61a5002a4cae895a614a778494af4c8192e11f322650"
        #expect(exchange.replayKey("c", "a", "phone_number", "STsidTOKEN") == previous)
        #expect(exchange.replayKey("c", "a", "phone_number", "STsidTOKEN", fields: .none) == previous)
        // A field that is not single-use (the carrier's name) leaves the key as it was.
        #expect(exchange.replayKey("c", "a", "phone_number", "STsidTOKEN", fields: try Self.fields(["carrier": "mobile"], [FlowProvider.fields[2]])) == previous)
        #expect(exchange.replayKey("c", "a", "verify", "STsidTOKEN", "13800138000", fields: .none)
            == "fbbc49a0f630dbc030950d10e5a7043acbd2a1ece022f84b8703fb83d2eb5646")
    }

    @Test("single-use values are in the key, sorted by name and length-delimited, so no two sets share one")
    func singleUseValues() throws {
        let exchange = try Self.exchange()
        let key = { (fields: ProviderFields) in exchange.replayKey("c", "a", "phone_number", "STsidTOKEN", fields: fields) }
        let both = try Self.fields(["processId": Self.processId, "authcode": "abc", "carrier": "mobile"])
        // Pinned, as instances of one version share keys in Redis:
        //   printf 'c\x1fa\x1fphone_number\x1fSTsidTOKEN\x1eauthcode\x1f3\x1fabc\x1eprocessId\x1f32\x1f0f1e…f0' | openssl mac … HMAC
        #expect(key(both) == "682d505a5ddc2e7236b056db67b16539f1c153d4c3d4f4e162cfde4194c4c6a5")
        #expect(key(try Self.fields(["processId": Self.processId, "authcode": "abc", "carrier": "unicom"])) == key(both))
        let keys = [
            key(.none), key(both), key(try Self.fields(["processId": Self.processId])),
            key(try Self.fields(["processId": Self.processId.replacingOccurrences(of: "0f", with: "f0")])),
            key(try Self.fields(["processId": Self.processId, "authcode": "abd"])),
        ]
        #expect(Set(keys).count == keys.count && keys.allSatisfy { $0?.count == 64 })

        // Values that could hold the separators still give distinct keys: the lengths delimit them.
        let anyByte = ProviderField.Charset("any ASCII", allowing: 0...127)
        let loose = ["a", "b"].map { ProviderField(name: $0, required: false, minLength: 0, maxLength: 64, charset: anyByte, singleUse: true) }
        let split = try Self.fields(["a": "x", "b": "y"], loose)
        let smuggled = try Self.fields(["a": "x\u{1E}b\u{1F}1\u{1F}y"], loose)
        let shifted = try Self.fields(["a": "x\u{1E}b", "b": ""], loose)
        #expect(Set([key(split), key(smuggled), key(shifted)]).count == 3)
    }

    @Test("an exchange with another processId is a new exchange; with the same one, a replay")
    func exchangesByFlow() async throws {
        let gateway = OneTimeTokenTests.CountingGateway { _ in .success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: "T")) }
        let exchange = try OneTimeTokenExchange(
            gateway: gateway, store: MemoryStateStore(), replayKey: Array(repeating: 1, count: 32), ttlMs: 300_000,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())))
        let app = TestConfiguration.make().apps[0], logger = Logger(label: "test")
        let flow = try Self.fields(["processId": Self.processId])
        let first = await exchange.phoneNumber(client: "c", app: app, token: "tok", fields: flow, logger: logger)
        let same = await exchange.phoneNumber(client: "c", app: app, token: "tok", fields: try Self.fields(["processId": Self.processId, "carrier": "x"]), logger: logger)
        #expect(!first.replayed && same.replayed && gateway.calls.withLock { $0 } == 1)
        let other = await exchange.phoneNumber(client: "c", app: app, token: "tok", fields: try Self.fields(["processId": Self.processId.uppercased()]), logger: logger)
        let none = await exchange.phoneNumber(client: "c", app: app, token: "tok", logger: logger)
        #expect(!other.replayed && !none.replayed && gateway.calls.withLock { $0 } == 3)
    }
}
