import PassgateCore
import Foundation
import HTTPTypes
import Hummingbird

/// The REST error envelope: `{"error": {"code", "message", "retryable", "action", "requestId", "field"?, "carrier"?}}`.
struct ErrorEnvelope: Encodable {
    struct Body: Encodable {
        struct Carrier: Encodable {
            var provider: String
            var code: String
            var message: String?
        }

        var code: String
        var message: String
        var retryable: Bool
        var action: String
        var requestId: String
        var field: String?
        var carrier: Carrier?
    }

    var error: Body

    init(_ error: PassgateError, requestId: String) {
        var field: String?
        if case .request(let name, _) = error.reason { field = name }
        self.error = Body(
            code: error.code.rawValue, message: error.message, retryable: error.retryable, action: error.action.rawValue, requestId: requestId, field: field,
            carrier: error.carrierAnswer.map { Body.Carrier(provider: $0.provider, code: $0.code, message: $0.message) }
        )
    }
}

extension PassgateError.Code {
    /// The HTTP status the REST API answers with; the codes themselves know no HTTP (PassgateCore).
    var httpStatus: Int {
        switch self {
        case .invalidRequest: 400
        case .unauthenticated: 401
        case .appForbidden: 403
        case .appUnknown, .notFound: 404
        case .methodNotAllowed: 405
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .callInProgress: 409
        case .tokenInvalid, .tokenWrongProduct, .tokenAppMismatch, .configInvalid: 422
        case .rateLimited: 429
        case .signatureRejected, .appNotEnabled, .ipNotWhitelisted, .quotaExhausted, .msisdnDecryptFailed,
            .carrierRejected, .carrierError, .carrierBadResponse:
            502
        case .carrierUnavailable, .serviceDraining: 503
        case .carrierTimeout: 504
        case .internalError: 500
        }
    }
}

/// Errors render themselves, as Hummingbird's own do: a route just throws.
extension PassgateError: HTTPResponseError {
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: code.httpStatus) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let requestId = (context as? PassgateRequestContext)?.requestId ?? MessageID.make()
        return response(requestId: requestId, retryAfterSeconds: retryAfterSeconds ?? ([.rateLimited, .serviceDraining, .callInProgress].contains(code) ? 1 : nil))
    }

    /// The JSON error response; `Retry-After` when `retryAfterSeconds` is given.
    func response(requestId: String, retryAfterSeconds: Int? = nil) -> Response {
        var headers = JSONBody.headers
        headers[.requestID] = requestId
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        let body = (try? JSONBody.encoder.encode(ErrorEnvelope(self, requestId: requestId))) ?? Data(#"{"error":{"code":"internal_error"}}"#.utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Maps errors Hummingbird raises itself (unknown route, body too large) into the contract.
    static func from(_ error: any Error) -> PassgateError {
        if let error = error as? PassgateError { return error }
        if let error = error as? HTTPError {
            switch error.status.code {
            case 404: return PassgateError(.notFound, .request(field: nil, problem: "no such route"))
            case 405: return PassgateError(.methodNotAllowed, .request(field: nil, problem: "method not allowed"))
            case 413: return PassgateError(.payloadTooLarge, .request(field: nil, problem: "body too large"))
            case 400..<500: return PassgateError(.invalidRequest, .request(field: nil, problem: error.body ?? "bad request"), message: error.body ?? PassgateError.Code.invalidRequest.defaultMessage)
            default: break
            }
        }
        return .internalError("unhandled error in a route", underlying: error)
    }
}

/// JSON body helpers shared by every route.
enum JSONBody {
    static let contentType = "application/json; charset=utf-8"
    /// The headers every JSON answer starts from: `Content-Type`, its value checked once rather
    /// than per response.
    static let headers: HTTPFields = [.contentType: contentType]

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A 200 JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
