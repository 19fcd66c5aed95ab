/// One load the bench measures for a provider: wrk sends Passgate one request per fresh sandbox
/// token for ``appId``, and the same load, signed by `passgate sign`, straight to the sandbox as
/// the upstream reference. Its runs are named `NAME-cCONNECTIONS-lLATENCY` (`jv-c64-l0`).
public struct BenchScenario: Sendable {
    /// Where in the bench's grid of loads the scenario is measured.
    public enum Coverage: String, Sendable, CaseIterable {
        /// Every connection count and sandbox latency the bench has (1, 64, 1,024; 0 and 200 ms),
        /// its upstream references with the others' at the start of each connection count.
        case everyLoad = "every-load"
        /// 64 connections against a 0 ms sandbox only, right after its own upstream reference.
        case oneLoad = "one-load"
    }

    /// The scenario's short name, unique in the plan: lower-case letters and digits (`md5`, `jv`).
    public var name: String
    /// What it measures, for the report's titles (the provider's name and its call); the bench
    /// adds Passgate's route.
    public var label: String
    /// The Passgate route it loads: `phoneNumber` (`POST /v1/phone-number`) or `verify`
    /// (`POST /v1/phone-number/verify`, for ``BenchLoad/phoneNumber``).
    public var operation: CarrierCall.Operation
    /// One of the provider's ``BenchLoad/apps``.
    public var appId: String
    /// The upstream reference: what the sandbox's own endpoint for this load is sent (the
    /// report's "How it was measured" lists it), measured alone.
    public var upstream: String
    /// A substring of every good answer of the sandbox's endpoint to the upstream reference (a
    /// success code; the number itself when it is sent in clear).
    public var upstreamSuccess: String
    /// Private-key operations (RSA sign or decrypt) per request on Passgate's side: bounds the
    /// rate the bench sizes its first token pool for by openssl's speed.
    public var privateKeyOperations: Int
    public var coverage: Coverage
    /// The `providerFields` every request carries, to Passgate and in the upstream reference; empty
    /// for a provider that reads none.
    public var fields: [BenchField]

    public init(
        name: String, label: String, operation: CarrierCall.Operation, appId: String, upstream: String, upstreamSuccess: String,
        privateKeyOperations: Int = 0, coverage: Coverage = .oneLoad, fields: [BenchField] = []
    ) {
        self.name = name
        self.label = label
        self.operation = operation
        self.appId = appId
        self.upstream = upstream
        self.upstreamSuccess = upstreamSuccess
        self.privateKeyOperations = privateKeyOperations
        self.coverage = coverage
        self.fields = fields
    }
}
