import PassgateCore

/// The final outcome of one exchange as the replay cache keeps it: enough to answer a repeat
/// exactly as the first request was answered.
enum StoredOutcome: Sendable, Equatable {
    /// `riskScore` is absent in entries written before it existed, and for providers without one.
    case phoneNumber(phoneNumber: String, taskId: String?, riskScore: Int?)
    case verification(result: VerificationResult, taskId: String?)
    /// `action` is absent in entries written before it existed: the code's default then.
    case failure(code: String, message: String, carrierProvider: String?, carrierCode: String?, carrierMessage: String?, action: String?)

    init(_ error: PassgateError) {
        let answer = error.carrierAnswer
        self = .failure(code: error.code.rawValue, message: error.message, carrierProvider: answer?.provider,
                        carrierCode: answer?.code, carrierMessage: answer?.message, action: error.action.rawValue)
    }

    /// The marker for a token whose call may have reached the provider without a known outcome
    /// (a timeout or reset after sending, a reply that could not be read): the same answer for
    /// every retry, never a second call. The code stays the first answer's (`carrier_timeout`,
    /// `carrier_bad_response`), so a retry reads like the request it repeats.
    static func spentOutcomeUnknown(after error: PassgateError) -> StoredOutcome {
        .failure(
            code: error.code.rawValue,
            message: "An earlier request with this token reached the provider, or may have, and its outcome is unknown (\(error.code.rawValue)): the token may be spent. Passgate does not send it again; get a new token from the SDK.",
            carrierProvider: nil, carrierCode: nil, carrierMessage: nil, action: PassgateError.Action.newToken.rawValue)
    }

    /// The marker a request writes when it finds another request's claim lapsed without an outcome.
    static let abandonedClaim = StoredOutcome.failure(
        code: PassgateError.Code.carrierTimeout.rawValue,
        message: "Another request with this token started a provider call and stopped without an outcome (its Passgate instance stopped or lost the state store mid-call): the token may be spent. Passgate does not send it again; get a new token from the SDK.",
        carrierProvider: nil, carrierCode: nil, carrierMessage: nil, action: PassgateError.Action.newToken.rawValue)

    var error: PassgateError? {
        guard case .failure(let code, let message, let provider, let carrierCode, let carrierMessage, let action) = self else { return nil }
        let stable = PassgateError.Code(rawValue: code) ?? .internalError
        // Only final outcomes are stored, and a final outcome is never worth the same token again.
        let storedAction = action.flatMap(PassgateError.Action.init(rawValue:))
        if let provider, let carrierCode {
            return PassgateError(stable, .carrier(CarrierAnswer(provider: provider, code: carrierCode, message: carrierMessage)), message: message,
                                 retryable: false, action: storedAction)
        }
        return PassgateError(stable, .local("replayed outcome"), message: message, retryable: false, action: storedAction)
    }

    /// The entry's JSON: `{"case":{"field":…}}`, absent optionals left out - the shape entries
    /// had when Swift's synthesized `Codable` wrote them, so entries written by earlier versions
    /// stay readable during a rolling upgrade (HotPathEncodingTests keeps such entries).
    func encoded() -> [UInt8] {
        var fields = JSONObjectWriter()
        let name: String
        switch self {
        case .phoneNumber(let phoneNumber, let taskId, let riskScore):
            name = "phoneNumber"
            fields.add("phoneNumber", phoneNumber)
            fields.add("taskId", taskId)
            if let riskScore { fields.add("riskScore", riskScore) }
        case .verification(let result, let taskId):
            name = "verification"
            fields.add("result", result.rawValue)
            fields.add("taskId", taskId)
        case .failure(let code, let message, let carrierProvider, let carrierCode, let carrierMessage, let action):
            name = "failure"
            fields.add("action", action)
            fields.add("code", code)
            fields.add("message", message)
            fields.add("carrierProvider", carrierProvider)
            fields.add("carrierCode", carrierCode)
            fields.add("carrierMessage", carrierMessage)
        }
        var outer = JSONObjectWriter()
        outer.add(name, object: fields)
        return outer.finish()
    }

    /// The entry `bytes` hold, read with the one JSON reader; nil for anything else (an entry is
    /// then treated as absent, and the request calls the provider as if it were the first).
    static func decode(_ bytes: [UInt8]) -> StoredOutcome? {
        guard case .object(let members)? = try? ParsedJSON.parse(bytes), members.count == 1,
            case .object = members[0].value
        else { return nil }
        let fields = members[0].value
        func text(_ key: String) -> String?? {
            switch fields[key] {
            case nil, .null?: return .some(nil)
            case .string(let value)?: return .some(value)
            default: return nil
            }
        }
        switch members[0].key {
        case "phoneNumber":
            guard let phoneNumber = text("phoneNumber") ?? nil, let taskId = text("taskId") else { return nil }
            var riskScore: Int?
            switch fields["riskScore"] {
            case nil, .null?: riskScore = nil
            case .number(let digits)?:
                guard let score = Int(digits) else { return nil }
                riskScore = score
            default: return nil
            }
            return .phoneNumber(phoneNumber: phoneNumber, taskId: taskId, riskScore: riskScore)
        case "verification":
            guard let raw = text("result") ?? nil, let result = VerificationResult(rawValue: raw), let taskId = text("taskId") else { return nil }
            return .verification(result: result, taskId: taskId)
        case "failure":
            guard let code = text("code") ?? nil, let message = text("message") ?? nil, let provider = text("carrierProvider"),
                let carrierCode = text("carrierCode"), let carrierMessage = text("carrierMessage"), let action = text("action")
            else { return nil }
            return .failure(code: code, message: message, carrierProvider: provider, carrierCode: carrierCode, carrierMessage: carrierMessage,
                            action: action)
        default:
            return nil
        }
    }
}
