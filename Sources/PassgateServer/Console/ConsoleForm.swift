import Hummingbird
import PassgateCore

/// A console form's body (`application/x-www-form-urlencoded`), read through Hummingbird's decoder.
enum ConsoleForm {
    /// The field every state-changing form carries.
    struct CSRF: Decodable {
        var csrf: String?
    }

    /// Decodes `request`'s body as `Form`; the body stays collected in `request`, so the route can
    /// decode it again (the session gate reads only the CSRF field).
    static func decode<Form: Decodable>(_ type: Form.Type, from request: inout Request) async throws -> Form {
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: PassgateRuntime.operationsMaxBodyBytes)
        } catch {
            throw PassgateError(.payloadTooLarge, .request(field: "body", problem: "over \(PassgateRuntime.operationsMaxBodyBytes) bytes"),
                                message: "The form is larger than \(PassgateRuntime.operationsMaxBodyBytes) bytes.")
        }
        do {
            return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
        } catch {
            throw PassgateError(.invalidRequest, .request(field: "form", problem: "not a form the console sent"),
                                message: "The form could not be read; open the page again and resubmit it.")
        }
    }
}
