import PassgateCore
/// Calls CMCC: builds and signs the request, sends it once through the transport, parses the
/// reply, decrypts the number, and maps every result code to the normalized outcome.
///
/// It never retries: whether a failed call may be repeated is the caller's decision, made from
/// `TransportFailure.Kind.mayHaveBeenDelivered`.
public struct CMCCProvider: Sendable {
    let transport: any CarrierTransport
    let clock: any WallClock

    public init(transport: any CarrierTransport, clock: any WallClock = SystemWallClock()) {
        self.transport = transport
        self.clock = clock
    }

    /// Exchanges a login token for the phone number (`loginTokenValidate`).
    public func phoneNumber(app: CMCCApp, token: String, endpoint: CMCCEndpoint) async -> CarrierExchange<PhoneNumberOutcome> {
        let request: CMCCLoginRequest
        do {
            request = try CMCCLoginRequest(
                appId: app.appId, token: token, signing: app.login, msgid: MessageID.make(), systemtime: BeijingTimestamp.now(clock)
            )
        } catch {
            return CarrierExchange(call: nil, result: .failure(.internalError("cannot sign the login request", underlying: error)))
        }
        return await exchange(.phoneNumber, msgid: request.msgid, url: endpoint.baseURL + CMCCLoginRequest.path, body: request.body, endpoint: endpoint) { reply throws(PassgateError) in
            let parsed = try CMCCReplyParser.login(status: reply.status, contentType: reply.contentType, body: reply.body, expectedMsgid: request.msgid)
            let entry = CMCC.lookup(parsed.resultCode, in: CMCC.loginCodes)
            return (parsed.resultCode, parsed.taskId, entry, Result { () throws(PassgateError) in try Self.phoneNumber(from: parsed, entry: entry, app: app) })
        }
    }

    /// Asks whether `phoneNumber` is the device's own number (`tokenValidate`).
    public func verify(app: CMCCApp, token: String, phoneNumber: String, endpoint: CMCCEndpoint) async -> CarrierExchange<VerificationOutcome> {
        guard let keying = app.verify else {
            return CarrierExchange(call: nil, result: .failure(PassgateError(
                .appNotEnabled, .local("no appKey configured for \(app.appId)"),
                message: "Number verification needs the app's appKey in Passgate's configuration (apps[].appKey) for appId \(app.appId)."
            )))
        }
        let request: CMCCVerifyRequest
        do {
            request = try CMCCVerifyRequest(
                appId: app.appId, token: token, phoneNumber: phoneNumber, keying: keying,
                msgId: MessageID.make().uppercased(), timestamp: BeijingTimestamp.now(clock)
            )
        } catch {
            return CarrierExchange(call: nil, result: .failure(.internalError("cannot sign the verification request", underlying: error)))
        }
        return await exchange(.verify, msgid: request.msgId, url: endpoint.baseURL + CMCCVerifyRequest.path, body: request.body, endpoint: endpoint) { reply throws(PassgateError) in
            let parsed = try CMCCReplyParser.verify(status: reply.status, contentType: reply.contentType, body: reply.body, expectedMsgId: request.msgId)
            let entry = CMCC.lookup(parsed.resultCode, in: CMCC.verifyCodes)
            let result: Result<VerificationOutcome, PassgateError> = switch parsed.resultCode {
            case _ where entry.error == nil && !(200..<300).contains(parsed.httpStatus):
                .failure(Self.contradictoryStatus(parsed.httpStatus, code: parsed.resultCode))
            case "000": .success(VerificationOutcome(result: .match, carrierTaskId: parsed.taskId))
            case "001": .success(VerificationOutcome(result: .mismatch, carrierTaskId: parsed.taskId))
            default: .failure(entry.makeError(carrierMessage: parsed.resultDesc))
            }
            return (parsed.resultCode, parsed.taskId, entry, result)
        }
    }

    /// A success code must come with a number we can read; anything else maps through the table.
    static func phoneNumber(from reply: CMCCLoginReply, entry: CMCCResultCode, app: CMCCApp) throws(PassgateError) -> PhoneNumberOutcome {
        guard entry.error == nil else { throw entry.makeError(carrierMessage: reply.desc) }
        guard (200..<300).contains(reply.httpStatus) else { throw contradictoryStatus(reply.httpStatus, code: reply.resultCode) }
        guard let msisdn = reply.msisdn, !msisdn.isEmpty else {
            throw CMCCReplyParser.badReply(.missingField("msisdn"))
        }
        if let key = app.decryptionKey {
            return PhoneNumberOutcome(phoneNumber: try MSISDN.decrypt(msisdn, with: key), carrierTaskId: reply.taskId)
        }
        guard MSISDN.isMainland(msisdn) else {
            let hint = msisdn.count > 100 ? " (it looks like RSA ciphertext: is the app set to RSA encryption in the CMCC console? then use signMode: rsa)" : ""
            throw CMCCReplyParser.badReply(.malformedField("msisdn", detail: "is not an 11-digit mainland number\(hint)"))
        }
        return PhoneNumberOutcome(phoneNumber: msisdn, carrierTaskId: reply.taskId)
    }

    /// A success code under an error status: which of the two to believe is unknowable, so
    /// neither is; the number, if any, is not used.
    static func contradictoryStatus(_ status: Int, code: String) -> PassgateError {
        CMCCReplyParser.badReply(.malformedField("resultCode", detail: "is the success code \(code) but came with HTTP \(status)"))
    }

    /// Sends once and records the call, whatever happens.
    private func exchange<Value: Sendable>(
        _ operation: CarrierCall.Operation, msgid: String, url: String, body: [UInt8], endpoint: CMCCEndpoint,
        interpret: (CarrierHTTPReply) throws(PassgateError) -> (code: String, taskId: String?, entry: CMCCResultCode, result: Result<Value, PassgateError>)
    ) async -> CarrierExchange<Value> {
        let request = CarrierHTTPRequest(
            url: url, body: body, headers: [("Content-Type", "application/json;charset=UTF-8"), ("Accept", "application/json")],
            connectTimeoutMs: endpoint.connectTimeoutMs, timeoutMs: endpoint.timeoutMs
        )
        var call = CarrierCall(provider: CMCC.providerID, operation: operation, msgid: msgid, normalizedCode: "ok", billable: false, latencyMs: 0, host: endpoint.host)
        let started = ContinuousClock.now
        let result: Result<Value, PassgateError>
        do {
            let reply = try await transport.send(request)
            call.latencyMs = Self.milliseconds(since: started)
            call.httpStatus = reply.status
            let interpreted = try interpret(reply)
            call.rawCode = interpreted.code
            call.taskId = interpreted.taskId
            // Billing follows the carrier's code: a success whose number we then fail to decrypt is still billed.
            call.billable = interpreted.entry.error == nil
            result = interpreted.result
        } catch let error as PassgateError {
            call.latencyMs = Self.milliseconds(since: started)
            result = .failure(error)
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
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
