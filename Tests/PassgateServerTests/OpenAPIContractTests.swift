import PassgateCore
import Foundation
import HTTPTypes
import PassgateServer
import Testing
import Yams

/// `openapi.yaml` is the contract: every route, status and error code the server produces must be in it.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    /// `openapi.yaml` (the public API) or `openapi-operations.yaml` (the admin and metrics listeners).
    static func document(_ name: String = "openapi.yaml") throws -> [String: Any] {
        var directory = URL(fileURLWithPath: #filePath)
        while directory.path != "/" {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) {
                return try #require(try Yams.load(yaml: String(contentsOf: candidate, encoding: .utf8)) as? [String: Any])
            }
        }
        Issue.record("\(name) not found above \(#filePath)")
        return [:]
    }

    static func routes(_ name: String) throws -> Set<String> {
        let paths = try #require(try document(name)["paths"] as? [String: Any])
        var documented: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys where ["get", "post", "put", "delete", "patch"].contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        return documented
    }

    @Test("every route each listener serves is documented in its document, and nothing else is")
    func routes() throws {
        #expect(try Self.routes("openapi.yaml") == Set(passgateRoutes))
        #expect(try Self.routes("openapi-operations.yaml") == Set(passgateAdminRoutes + passgateMetricsRoutes))
    }

    @Test("each operations route names the server of the listener that serves it")
    func operationsServers() throws {
        let paths = try #require(try Self.document("openapi-operations.yaml")["paths"] as? [String: Any])
        let server = { (path: String) -> String? in
            ((paths[path] as? [String: Any])?["servers"] as? [[String: Any]])?.first?["url"] as? String
        }
        #expect(server("/admin/reload") == "http://127.0.0.1:8081" && server("/metrics") == "http://127.0.0.1:8082")
    }

    @Test("every error action is in the Action enum, and nothing else is")
    func actions() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let actions = try #require((schemas["Action"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(actions) == Set(PassgateError.Action.allCases.map(\.rawValue)))
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
        let statuses = Set(PassgateError.Code.allCases.map { String(PassgateError($0, .local("contract")).status.code) })
        for path in ["/v1/phone-number", "/v1/phone-number/verify"] {
            let post = try #require((paths[path] as? [String: Any])?["post"] as? [String: Any])
            let responses = Set((post["responses"] as? [String: Any] ?? [:]).keys)
            #expect(statuses.subtracting(responses).isEmpty, "\(path) lacks \(statuses.subtracting(responses).sorted())")
            #expect(responses.contains("200"))
        }
    }
}
