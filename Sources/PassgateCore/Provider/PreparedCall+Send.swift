extension PreparedCall {
    /// Sends the call once to `endpoint` and records it, whatever happens: the one place a
    /// provider's call becomes a `CarrierCall` (log line, metrics, audit record). It never
    /// retries: whether a failure may be repeated is the caller's decision, from
    /// `TransportFailure.Kind.mayHaveBeenDelivered`.
    public func send(to endpoint: ProviderEndpoint, via transport: any CarrierTransport) async -> CarrierExchange<Value> {
        let http = CarrierHTTPRequest(
            method: request.method.rawValue, url: endpoint.baseURL + request.path, body: request.body, headers: request.headers,
            connectTimeoutMs: endpoint.connectTimeoutMs, timeoutMs: endpoint.timeoutMs, options: endpoint.options
        )
        var call = CarrierCall(provider: provider, operation: operation, msgid: request.msgid, normalizedCode: "ok", billable: false, latencyMs: 0, host: endpoint.host)
        let started = ContinuousClock.now
        let result: Result<Value, PassgateError>
        do {
            let reply = try await transport.send(http)
            call.latencyMs = Self.milliseconds(since: started)
            call.httpStatus = reply.status
            let answer = interpret(reply)
            call.rawCode = answer.rawCode
            call.taskId = answer.taskId
            call.billable = answer.billable
            result = answer.result
        } catch let failure as TransportFailure {
            call.latencyMs = Self.milliseconds(since: started)
            result = .failure(PassgateError(transport: failure))
        } catch {
            call.latencyMs = Self.milliseconds(since: started)
            result = .failure(error is CancellationError
                ? PassgateError(transport: TransportFailure(kind: .noAnswer, detail: "cancelled while the request was in flight", host: endpoint.host))
                : .internalError("transport threw an unexpected error", underlying: error))
        }
        if case .failure(let error) = result { call.normalizedCode = error.code.rawValue }
        return CarrierExchange(call: call, result: result)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components  // one 128-bit split, not one per field
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
    }
}
