import PassgateConfig
import PassgateCore
import Tracing

extension ProviderGateway {
    /// A client span for one attempt at one base URL, a child of the request's span; `nil` with
    /// tracing off or the request's trace not recorded. Named for the provider and operation
    /// only: never a token or number.
    func attemptSpan(app: AppSettings, operation: CarrierCall.Operation, host: String, attempt: Int) -> PassgateSpan? {
        guard let span = tracer?.childSpan("\(app.provider) \(operation.rawValue)", ofKind: .client) else { return nil }
        span.updateAttributes { attributes in
            attributes["passgate.provider"] = app.provider
            attributes["passgate.app_id"] = app.appId
            attributes["passgate.operation"] = operation.rawValue
            attributes["server.address"] = host
            attributes["passgate.attempt"] = attempt
        }
        return span
    }

    /// Ends an attempt's span with the carrier's answer: its code, Passgate's normalized code,
    /// whether it is billable, and an error status for anything but `ok`.
    static func end<Value>(_ span: PassgateSpan, _ exchange: CarrierExchange<Value>) {
        defer { span.end() }
        guard span.isRecording else { return }
        if let call = exchange.call {
            span.updateAttributes { attributes in
                if let code = call.rawCode { attributes["passgate.provider.code"] = code }
                attributes["passgate.code"] = call.normalizedCode
                attributes["passgate.billable"] = call.billable
                if let status = call.httpStatus { attributes["http.response.status_code"] = status }
            }
        }
        if case .failure(let error) = exchange.result {
            if exchange.call == nil { span.attributes["passgate.code"] = error.code.rawValue }
            span.setStatus(SpanStatus(code: .error, message: error.code.rawValue))
        }
    }
}
