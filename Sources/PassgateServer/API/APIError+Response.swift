import PassgateCore
import HTTPTypes
import Hummingbird
import NIOCore

/// The REST error envelope: `{"error": {"code", "message", "retryable", "action", "requestId", "field"?, "carrier"?}}`,
/// members in sorted order (what clients have always seen).
struct ErrorEnvelope: JSONObjectWritable {
    let error: PassgateError
    let requestId: String

    func writeJSON(into object: inout JSONObjectWriter) {
        var body = JSONObjectWriter()
        body.add("action", error.action.rawValue)
        if let answer = error.carrierAnswer {
            var carrier = JSONObjectWriter(capacity: 64)
            carrier.add("code", answer.code)
            carrier.add("message", answer.message)
            carrier.add("provider", answer.provider)
            body.add("carrier", object: carrier)
        }
        body.add("code", error.code.rawValue)
        if case .request(let field, _) = error.reason { body.add("field", field) }
        body.add("message", error.message)
        body.add("requestId", requestId)
        body.add("retryable", error.retryable)
        object.add("error", object: body)
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
        var object = JSONObjectWriter(capacity: 512)
        ErrorEnvelope(error: self, requestId: requestId).writeJSON(into: &object)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: object.finish())))
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

}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
