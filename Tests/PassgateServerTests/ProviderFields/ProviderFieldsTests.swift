import HTTPTypes
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateProviders
import PassgateTestSupport
import Testing

/// `providerFields` end to end, in-process: the shape read with the body, the values held to
/// what the app's provider declares (here the test's `FlowProvider`), passed to the provider,
/// covered by the replay key where single-use, and never logged.
@Suite("providerFields, declared per provider")
struct ProviderFieldsTests {
    static let flowApp = "flowapp1"
    static let processId = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    static let otherProcessId = "ffeeddccbbaa99887766554433221100"

    /// The in-process configuration (echo app, CMCC apps) plus a flow app granted to shop and shop2.
    static func configuration() throws -> PassgateConfiguration {
        var configuration = try InProcessPassgate.configuration()
        configuration.registry = configuration.registry.adding([FlowProvider()])
        configuration.providers[FlowProvider.id] = ProviderSettings(id: FlowProvider.id, baseURLs: ["https://flow.invalid"])
        configuration.apps.append(AppSettings(provider: FlowProvider.id, settings: EchoProvider.App(appId: flowApp, secret: InProcessPassgate.echoSecret)))
        configuration.clients[0].apps.insert(flowApp)  // shop
        configuration.clients[2].apps.insert(flowApp)  // shop2
        return configuration
    }

    static func with<T: Sendable>(
        carrier: EchoCarrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber), logs: MemoryLogSink = MemoryLogSink(),
        _ body: @Sendable (InProcessPassgate) async throws -> T
    ) async throws -> T {
        try await InProcessPassgate.with(try configuration(), carrier: carrier, logs: logs, body)
    }

    /// An authenticated POST of a raw body (key order and duplicates as written).
    static func post(_ passgate: InProcessPassgate, _ body: String, to path: String = "/v1/phone-number") async throws -> APIAnswer {
        try await passgate.send(.post, path, body: Array(body.utf8), headers: [
            ("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json"),
        ])
    }

    @Test("declared fields reach the provider on both operations, and are never logged")
    func fieldsReachTheProvider() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        let logs = MemoryLogSink()
        try await Self.with(carrier: carrier, logs: logs) { passgate in
            let fields: [String: String] = ["processId": Self.processId, "authcode": "Tel3c0de", "carrier": "unicom"]
            let number = try await passgate.post("/v1/phone-number", ["appId": Self.flowApp, "token": "flow-token-000001", "providerFields": fields])
            #expect(number.status == 200 && number.json["provider"] as? String == "flow", "\(number.body)")
            let verify = try await passgate.post("/v1/phone-number/verify", [
                "appId": Self.flowApp, "token": "flow-token-000002", "phoneNumber": InProcessPassgate.echoNumber, "providerFields": ["processId": Self.otherProcessId],
            ])
            #expect(verify.status == 200 && verify.json["result"] as? String == "match", "\(verify.body)")

            let sent = carrier.sent.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(sent.count == 2)
            #expect(sent.first?.hasPrefix(#"{"authcode":"Tel3c0de","carrier":"unicom","processId":"\#(Self.processId)","app":"#) == true, "\(sent)")
            #expect(sent.last?.hasPrefix(#"{"processId":"\#(Self.otherProcessId)","app":"#) == true, "\(sent)")
        }
        let lines = logs.contents
        #expect(lines.contains { $0.contains("carrier call") }, "the calls were logged: the check below looked at them")
        for line in lines {
            for value in [Self.processId, Self.otherProcessId, "Tel3c0de", "unicom"] {
                #expect(!line.contains(value), "a providerFields value in a log line: \(line)")
            }
        }
    }

    @Test(
        "a missing, malformed, empty or undeclared field is 400 invalid_request naming providerFields.<key>, before any call",
        arguments: [
            (#""providerFields":{}"#, "providerFields.processId", "is required by the flow provider"),
            ("", "providerFields.processId", "is required by the flow provider"),
            (#""providerFields":{"processId":"not-hex-and-short"}"#, "providerFields.processId", "must be exactly 32 characters: hexadecimal digits"),
            (#""providerFields":{"processId":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","authcode":"with space"}"#, "providerFields.authcode", "ASCII letters and digits"),
            (#""providerFields":{"processId":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","authcode":""}"#, "providerFields.authcode", "is empty"),
            (#""providerFields":{"processId":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","carrier":"China Mobile"}"#, "providerFields.carrier", "'-', '_'"),
            (#""providerFields":{"procesId":"0f1e2d3c4b5a69788796a5b4c3d2e1f0"}"#, "providerFields.procesId",
             "is not a field the flow provider reads; it reads authcode, carrier, processId"),
            (#""providerFields":{"processId":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","zz":"1","yy":"2"}"#, "providerFields.yy", "reads (nor is zz);"),
        ]
    )
    func refusedValues(members: String, field: String, problem: String) async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await Self.with(carrier: carrier) { passgate in
            let extra = members.isEmpty ? "" : ",\(members)"
            for (path, phone) in [("/v1/phone-number", ""), ("/v1/phone-number/verify", #","phoneNumber":"13912345670""#)] {
                let answer = try await Self.post(passgate, #"{"appId":"\#(Self.flowApp)","token":"flow-token-1"\#(phone)\#(extra)}"#, to: path)
                #expect(answer.status == 400 && answer.errorCode == "invalid_request" && answer.error["field"] as? String == field, "\(path): \(answer.body)")
                let message = answer.error["message"] as? String ?? ""
                #expect(message.hasPrefix("\(field): ") && message.contains(problem), "\(path): \(message)")
                for value in ["not-hex-and-short", "with space", "China Mobile"] { #expect(!message.contains(value), "the value echoed: \(message)") }
            }
            #expect(carrier.calls == 0 && carrier.sent.isEmpty)
        }
    }

    @Test(
        "a providerFields that is not an object of strings, has a key twice or a key too long or odd is 400 naming the field, whatever the app",
        arguments: [
            (#""x""#, "providerFields", "must be a JSON object of strings"),
            (#"["processId"]"#, "providerFields", "not an array"),
            (#"{"processId":7}"#, "providerFields.processId", "must be a string, not a number"),
            (#"{"processId":null}"#, "providerFields.processId", "must be a string, not null"),
            (#"{"processId":"a","processId":"b"}"#, "providerFields.processId", "appears more than once"),
            (#"{"\#(String(repeating: "k", count: 65))":"v"}"#, "providerFields", "has a key (65 bytes)"),
            (#"{"":"v"}"#, "providerFields", "has a key (0 bytes)"),
            (#"{"process.id":"v"}"#, "providerFields", "not 1-64 ASCII letters, digits, '_' or '-'"),
        ]
    )
    func refusedShapes(value: String, field: String, problem: String) async throws {
        try await Self.with { passgate in
            for app in [Self.flowApp, InProcessPassgate.echoApp, TestConfiguration.md5App] {
                let answer = try await Self.post(passgate, #"{"appId":"\#(app)","token":"flow-token-1","providerFields":\#(value)}"#)
                #expect(answer.status == 400 && answer.error["field"] as? String == field, "\(app): \(answer.body)")
                #expect((answer.error["message"] as? String)?.contains(problem) == true, "\(app): \(answer.body)")
            }
        }
    }

    @Test("a built-in provider that declares no fields refuses a non-empty providerFields naming its key, not an empty or absent one")
    func builtInProvidersReadNone() async throws {
        let readNone = ProviderRegistry.builtIn.ids.filter { ProviderRegistry.builtIn[$0]?.providerFields.isEmpty == true }
        #expect(readNone.contains("cmcc"))
        for id in readNone {
            let provider = try #require(ProviderRegistry.builtIn[id])
            // What the server runs for every request, with this provider's declaration.
            #expect(try ProviderFields(checking: [:], against: provider.providerFields, provider: id).isEmpty)
            let error = #expect(throws: PassgateError.self) {
                try ProviderFields(checking: ["processId": Self.processId], against: provider.providerFields, provider: id)
            }
            #expect(error?.code == .invalidRequest && error?.message.hasPrefix("providerFields.processId: is not a field the \(id) provider reads") == true, "\(id)")
            #expect(error?.message.contains("it reads none") == true && error?.message.contains(Self.processId) == false, "\(id)")
        }
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await Self.with(carrier: carrier) { passgate in
            let cmcc = try await Self.post(passgate, #"{"appId":"\#(TestConfiguration.md5App)","token":"t1","providerFields":{"processId":"x"}}"#)
            #expect(cmcc.status == 400 && cmcc.error["field"] as? String == "providerFields.processId", "\(cmcc.body)")
            #expect(carrier.calls == 0 && carrier.sent.isEmpty)
            // The echo provider declares none either: an empty object and null are no fields at all.
            for (index, fields) in ["{}", "null"].enumerated() {
                let answer = try await Self.post(passgate, #"{"appId":"\#(InProcessPassgate.echoApp)","token":"echo-none-\#(index)","providerFields":\#(fields)}"#)
                #expect(answer.status == 200, "\(fields): \(answer.body)")
            }
            // Past the check (what comes after is this configuration's: it gives cmcc no carrier).
            let cmccEmpty = try await Self.post(passgate, #"{"appId":"\#(TestConfiguration.md5App)","token":"t2","providerFields":{}}"#)
            #expect(cmccEmpty.status != 400 && cmccEmpty.errorCode != "invalid_request", "\(cmccEmpty.body)")
        }
    }

    @Test("the replay key covers single-use fields: the same token with the same processId is a replay, with another processId or authcode a new exchange; the carrier's name does not count")
    func replayKeyCoversSingleUseFields() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await Self.with(carrier: carrier) { passgate in
            let token = "flow-token-replay1"
            func post(_ fields: String) async throws -> APIAnswer {
                try await Self.post(passgate, #"{"appId":"\#(Self.flowApp)","token":"\#(token)","providerFields":\#(fields)}"#)
            }
            let first = try await post(#"{"processId":"\#(Self.processId)","carrier":"mobile"}"#)
            #expect(first.status == 200 && first.json["replayed"] as? Bool == false, "\(first.body)")
            // Members in another order, another carrier name: the same exchange.
            let reordered = try await post(#"{"carrier":"unicom","processId":"\#(Self.processId)"}"#)
            #expect(reordered.status == 200 && reordered.json["replayed"] as? Bool == true && carrier.calls == 1, "\(reordered.body)")
            let noCarrier = try await post(#"{"processId":"\#(Self.processId)"}"#)
            #expect(noCarrier.json["replayed"] as? Bool == true && carrier.calls == 1, "\(noCarrier.body)")

            // Another flow id: a new exchange, which reaches the carrier (that has seen the token).
            let otherFlow = try await post(#"{"processId":"\#(Self.otherProcessId)"}"#)
            #expect(otherFlow.status == 422 && otherFlow.errorCode == "token_invalid" && carrier.calls == 2, "\(otherFlow.body)")
            #expect(otherFlow.error["retryable"] as? Bool == false)
            let withAuthcode = try await post(#"{"processId":"\#(Self.processId)","authcode":"abc"}"#)
            #expect(withAuthcode.errorCode == "token_invalid" && carrier.calls == 3, "\(withAuthcode.body)")
            // Each of those is now a replay in its own right.
            let again = try await post(#"{"authcode":"abc","processId":"\#(Self.processId)"}"#)
            #expect(again.errorCode == "token_invalid" && carrier.calls == 3, "\(again.body)")
        }
    }

    @Test("openapi.yaml's ProviderFields lists exactly the keys this build's providers read, and both request bodies take it")
    func documented() throws {
        let registry = ProviderRegistry.builtIn
        let declared = Set(registry.ids.compactMap { registry[$0] }.flatMap { $0.providerFields.map(\.name) })
        let schema = try #require(try OpenAPISchema.schemas()["ProviderFields"] as? [String: Any])
        #expect(Set((schema["properties"] as? [String: Any] ?? [:]).keys) == declared)
        #expect(schema["additionalProperties"] as? Bool == false)
        for body in ["PhoneNumberRequest", "VerifyRequest"] {
            let member = try OpenAPISchema.properties(of: body)["providerFields"] as? [String: Any]
            #expect(member?["$ref"] as? String == "#/components/schemas/ProviderFields", "\(body)")
        }
    }
}
