import PassgateCore
import HTTPTypes
import Hummingbird
import NIOCore

/// A response body written by the one JSON writer (no `JSONEncoder` on any request path): compact,
/// members in sorted order, absent optionals left out - the form clients have always seen.
protocol JSONObjectWritable {
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
    /// A JSON response (200 unless `status` says otherwise) from a self-writing body.
    static func response(_ value: some JSONObjectWritable, status: HTTPResponse.Status = .ok) -> Response {
        var object = JSONObjectWriter()
        value.writeJSON(into: &object)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: object.finish())))
    }
}

extension HealthController.Status: JSONObjectWritable {
    func writeJSON(into object: inout JSONObjectWriter) {
        if let checks {
            var nested = JSONObjectWriter(capacity: 128)
            for (name, state) in checks.sorted(by: { $0.key < $1.key }) { nested.add(name, state) }
            object.add("checks", object: nested)
        }
        object.add("status", status)
    }
}

extension ReloadReport: JSONObjectWritable {
    func writeJSON(into object: inout JSONObjectWriter) {
        object.add("applied", strings: applied)
        object.add("generation", generation)
        object.add("restartRequired", strings: restartRequired)
    }
}
