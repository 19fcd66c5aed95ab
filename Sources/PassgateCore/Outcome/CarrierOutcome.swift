/// A phone number the carrier vouched for.
public struct PhoneNumberOutcome: Sendable, Equatable, RedactedDescription {
    /// The 11-digit mainland number, decrypted and validated.
    public var phoneNumber: String
    /// The carrier's billing record id.
    public var carrierTaskId: String?
    /// The provider's risk score for the request, where it sends one (on the provider's own
    /// scale, as its docs page says; higher is riskier).
    public var riskScore: Int?

    public init(phoneNumber: String, carrierTaskId: String?, riskScore: Int? = nil) {
        self.phoneNumber = phoneNumber
        self.carrierTaskId = carrierTaskId
        self.riskScore = riskScore
    }

    /// `138****8000`, for logs and for callers that only display it.
    public var maskedPhoneNumber: String { MSISDN.mask(phoneNumber) }

    /// The number masked, as in the logs.
    public var redactedFields: [(label: String, value: String)] {
        [("phoneNumber", maskedPhoneNumber), ("carrierTaskId", carrierTaskId ?? "none"), ("riskScore", riskScore.map { "\($0)" } ?? "none")]
    }
}

/// The carrier's word on whether a number is the device's own.
public enum VerificationResult: String, Sendable, Codable, CaseIterable {
    /// The number is the one the device's SIM uses (CMCC 000).
    case match
    /// It is not (CMCC 001).
    case mismatch
    /// The carrier could not tell. CMCC answers 000/001 or an error, so it never yields this;
    /// it is part of the contract for providers that can.
    case unknown
}

/// A number-verification answer.
public struct VerificationOutcome: Sendable, Equatable {
    public var result: VerificationResult
    public var carrierTaskId: String?

    public init(result: VerificationResult, carrierTaskId: String?) {
        self.result = result
        self.carrierTaskId = carrierTaskId
    }
}
