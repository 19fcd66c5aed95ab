import Testing

@testable import PassgateServer

/// The integration check's form: every problem names its field, and pasted values are cleaned
/// of the blanks a paste brings, never of blanks inside.
@Suite("the integration check's form")
struct IntegrationCheckFormTests {
    static func problem(_ form: [String: String]) -> IntegrationCheckForm.Problem? {
        #expect(throws: IntegrationCheckForm.Problem.self) { try IntegrationCheckForm(form: form) }
    }

    @Test("a complete form reads: trimmed token, NAME=VALUE lines, the phone for a verification")
    func reads() throws {
        let form = try IntegrationCheckForm(form: [
            "appId": "sy-demo", "token": " tok123\r\n", "providerFields": "operator=CMCC\r\n\r\n opToken=x=y ", "phoneNumber": "13800138000", "mode": "exchange",
        ])
        #expect(form.appId == "sy-demo" && form.token == "tok123" && form.phoneNumber == "13800138000" && form.mode == .exchange)
        #expect(form.providerFields == ["operator": "CMCC", "opToken": "x=y"])
        let explain = try IntegrationCheckForm(form: ["appId": "a", "token": "t"])
        #expect(explain.mode == .explain && explain.phoneNumber == nil && explain.providerFields.isEmpty)
    }

    @Test("each problem names its field")
    func problems() {
        #expect(Self.problem(["token": "t"])?.field == "appId")
        #expect(Self.problem(["appId": "a"])?.field == "token")
        #expect(Self.problem(["appId": "a", "token": "t o"])?.field == "token")
        #expect(Self.problem(["appId": "a", "token": String(repeating: "t", count: 5000)])?.field == "token")
        #expect(Self.problem(["appId": "a", "token": "t", "phoneNumber": "12345"])?.field == "phoneNumber")
        #expect(Self.problem(["appId": "a", "token": "t", "mode": "send"])?.field == "mode")
        #expect(Self.problem(["appId": "a", "token": "t", "providerFields": "operator"])?.message == "Line 1 is not NAME=VALUE.")
        #expect(Self.problem(["appId": "a", "token": "t", "providerFields": "a=1\na=2"])?.field == "providerFields")
    }
}
