import PassgateCore

/// `POST /v1/phone-number` 200 body.
struct PhoneNumberResponse: Sendable {
    var requestId: String
    var appId: String
    var provider: String
    var phoneNumber: String
    var maskedPhoneNumber: String
    var carrierTaskId: String?
    /// The provider's risk score, where it sends one (its docs page says whether it does).
    var riskScore: Int?
    var replayed: Bool
    var reference: String?
}

/// `POST /v1/phone-number/verify` 200 body.
struct VerifyResponse: Sendable {
    var requestId: String
    var appId: String
    var provider: String
    var result: VerificationResult
    var carrierTaskId: String?
    var replayed: Bool
    var reference: String?
}
