import PassgateCore

/// Tencent Cloud number authentication's identifiers and result codes.
public enum Tencent {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "tencent"

    /// Tencent Cloud publishes no code table for this API: `result` 0 is success, and every other
    /// code is kept raw with its `errmsg`, not retryable (nothing says the token survived). A used
    /// or expired token therefore surfaces as `carrier_error` with Tencent's raw code.
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Tencent Cloud",
        unknownHint: "Tencent Cloud publishes no code table for number authentication: read error.carrier.message (its errmsg), and ask Tencent Cloud support, quoting the code.",
        [ProviderResultCode(provider: providerID, providerName: "Tencent Cloud", "0", "success", nil)])
}
