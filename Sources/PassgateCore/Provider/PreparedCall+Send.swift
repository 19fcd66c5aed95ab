extension PreparedCall {
    /// Sends the call once to `endpoint` and records it, whatever happens: the one place a
    /// provider's call becomes a `CarrierCall` (log line, metrics, audit record). It never
    /// retries: whether a failure may be repeated is the caller's decision, from
    /// `TransportFailure.Kind.mayHaveBeenDelivered`.
    /// `clock` times the call (the latency in the record).
    public func send(to endpoint: ProviderEndpoint, via transport: any CarrierTransport, clock: any PassgateClock) async -> CarrierExchange<Value> {
        // An app's own base URL keeps the provider's timeouts and transport options.
        let endpoint = request.baseURL.map {
            ProviderEndpoint(baseURL: $0, connectTimeoutMs: endpoint.connectTimeoutMs, timeoutMs: endpoint.timeoutMs, options: endpoint.options)
        } ?? endpoint
        let http = CarrierHTTPRequest(
            method: request.method.rawValue, url: endpoint.baseURL + request.path, body: request.body, headers: request.headers,
            connectTimeoutMs: endpoint.connectTimeoutMs, timeoutMs: endpoint.timeoutMs, options: endpoint.options
        )
        var call = CarrierCall(provider: provider, operation: operation, msgid: request.msgid, normalizedCode: "ok", billable: false, latencyMs: 0, host: endpoint.host)
        let started = clock.monotonicNow()
        let result: Result<Value, PassgateError>
        do {
            let reply = try await transport.send(http)
            call.latencyMs = clock.milliseconds(since: started)
            call.httpStatus = reply.status
            let answer = interpret(reply)
            call.rawCode = answer.rawCode
            call.taskId = answer.taskId
            call.billable = answer.billable
            result = answer.result
        } catch let failure as TransportFailure {
            call.latencyMs = clock.milliseconds(since: started)
            result = .failure(PassgateError(transport: failure))
        } catch {
            call.latencyMs = clock.milliseconds(since: started)
            result = .failure(error is CancellationError
                ? PassgateError(transport: TransportFailure(kind: .noAnswer, detail: "cancelled while the request was in flight", host: endpoint.host))
                : .internalError("transport threw an unexpected error", underlying: error))
        }
        if case .failure(let error) = result { call.normalizedCode = error.code.rawValue }
        return CarrierExchange(call: call, result: result)
    }
}
