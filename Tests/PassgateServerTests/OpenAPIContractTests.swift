import CarrierKit
import Foundation
import PassgateServer
import Testing
import Yams

/// `openapi.yaml` is the contract: every route, status and error code the server produces must be in it.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    static func document() throws -> [String: Any] {
        var directory = URL(fileURLWithPath: #filePath)
        while directory.path != "/" {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("openapi.yaml")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return try #require(try Yams.load(yaml: String(contentsOf: candidate, encoding: .utf8)) as? [String: Any])
            }
        }
        Issue.record("openapi.yaml not found above \(#filePath)")
        return [:]
    }

    @Test("every served route is documented, and every documented route is served")
    func routes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: Any])
        var documented: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys where ["get", "post", "put", "delete", "patch"].contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        #expect(documented == Set(passgateRoutes + passgateAdminRoutes))
    }

    @Test("every error code is in the ErrorCode enum, and nothing else is")
    func errorCodes() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let codes = try #require((schemas["ErrorCode"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(codes) == Set(PassgateError.Code.allCases.map(\.rawValue)))
    }

    @Test("every HTTP status an API error can take is a documented response of both API operations")
    func statuses() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: Any])
        let statuses = Set(PassgateError.Code.allCases.map { String($0.httpStatus) })
        for path in ["/v1/phone-number", "/v1/phone-number/verify"] {
            let post = try #require((paths[path] as? [String: Any])?["post"] as? [String: Any])
            let responses = Set((post["responses"] as? [String: Any] ?? [:]).keys)
            #expect(statuses.subtracting(responses).isEmpty, "\(path) lacks \(statuses.subtracting(responses).sorted())")
            #expect(responses.contains("200"))
        }
    }
}
