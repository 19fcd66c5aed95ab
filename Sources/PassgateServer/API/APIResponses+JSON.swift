import PassgateCore
import HTTPTypes
import Hummingbird
import NIOCore

/// A response body written by the one JSON writer: the success answers go out on every request,
/// and `JSONEncoder` boxes every field through its generic containers. The output is what
/// `JSONBody.encoder` would write: compact, keys sorted, absent optionals left out.
protocol JSONObjectWritable: Encodable {
    func writeJSON(into object: inout JSONObjectWriter)
}

extension PhoneNumberResponse: JSONObjectWritable {
    func writeJSON(into object: inout JSONObjectWriter) {
        object.add("appId", appId)
        object.add("carrierTaskId", carrierTaskId)
        object.add("maskedPhoneNumber", maskedPhoneNumber)
        object.add("phoneNumber", phoneNumber)
        object.add("provider", provider)
        object.add("reference", reference)
        object.add("replayed", replayed)
        object.add("requestId", requestId)
        if let riskScore { object.add("riskScore", riskScore) }
    }
}

extension VerifyResponse: JSONObjectWritable {
    func writeJSON(into object: inout JSONObjectWriter) {
        object.add("appId", appId)
        object.add("carrierTaskId", carrierTaskId)
        object.add("provider", provider)
        object.add("reference", reference)
        object.add("replayed", replayed)
        object.add("requestId", requestId)
        object.add("result", result.rawValue)
    }
}

extension JSONBody {
    /// A 200 JSON response from a self-writing body. Declared `throws` like the `Encodable`
    /// overload it shadows, so call sites read the same whichever one they get; it never throws.
    static func response(_ value: some JSONObjectWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        var object = JSONObjectWriter()
        value.writeJSON(into: &object)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: object.finish())))
    }
}
