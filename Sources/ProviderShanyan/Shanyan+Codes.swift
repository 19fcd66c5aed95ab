import PassgateCore

/// Shanyan's identifiers and result codes.
public enum Shanyan {
    /// Provider id used in configs, metrics and error envelopes.
    public static let providerID = "shanyan"

    /// The success code. Shanyan's code appendix could not be found, so no failure code is mapped
    /// to a meaning: every other code is `carrier_error` with Shanyan's raw code and message
    /// kept, for Shanyan to explain. A guess presented as fact would send an operator the wrong way.
    public static let codes = ProviderResultCodeTable(
        provider: providerID, providerName: "Shanyan",
        unknownHint: "Shanyan's code table is not published: read its message (error.carrier.message), and ask Chuanglan support, quoting the code and the tradeNo if it persists.",
        [ProviderResultCode(provider: providerID, providerName: "Shanyan", "200000", "success", nil)])
}
