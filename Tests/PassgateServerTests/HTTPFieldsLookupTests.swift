import HTTPTypes
import Testing

@testable import PassgateServer

/// `joinedValue(of:)` replaced HTTPTypes' subscript on the request path; it must answer what the
/// subscript answers for every shape of header list.
@Suite("request headers: one-pass lookup")
struct HTTPFieldsLookupTests {
    static let cases: [[HTTPField]] = [
        [],
        [HTTPField(name: .authorization, value: "Bearer k1")],
        [HTTPField(name: .contentType, value: "application/json"), HTTPField(name: .authorization, value: "Bearer k1")],
        [HTTPField(name: .authorization, value: "Bearer k1"), HTTPField(name: .accept, value: "*/*"),
         HTTPField(name: .authorization, value: "Bearer k2")],
        [HTTPField(name: HTTPField.Name("AUTHORIZATION")!, value: "Bearer upper")],
        [HTTPField(name: .authorization, value: "")],
        [HTTPField(name: .cookie, value: "a=1"), HTTPField(name: .cookie, value: "b=2")],
        [HTTPField(name: .requestID, value: "req-1"), HTTPField(name: HTTPField.Name("x-request-id")!, value: "req-2")],
    ]

    @Test("answers what the HTTPFields subscript answers", arguments: cases)
    func matchesSubscript(fields: [HTTPField]) {
        let headers = HTTPFields(fields)
        for name: HTTPField.Name in [.authorization, .contentType, .cookie, .requestID, .accept, .userAgent] {
            #expect(headers.joinedValue(of: name) == headers[name], "\(name)")
        }
    }

    @Test("joins repeated fields in order, with the separator the field's rules use")
    func joinsRepeatedFields() {
        let headers = HTTPFields([
            HTTPField(name: .authorization, value: "Bearer k1"), HTTPField(name: .authorization, value: "Bearer k2"),
            HTTPField(name: .cookie, value: "a=1"), HTTPField(name: .cookie, value: "b=2"),
        ])
        #expect(headers.joinedValue(of: .authorization) == "Bearer k1, Bearer k2")
        #expect(headers.joinedValue(of: .cookie) == "a=1; b=2")
        #expect(headers.joinedValue(of: .contentType) == nil)
    }
}
