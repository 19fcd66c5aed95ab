/// The providers this build speaks to, by id. Made once, at the composition root
/// (`ProviderRegistry.builtIn` in `PassgateProviders`, which `passgate` passes to the configuration
/// and the sandbox); adding a provider is one line there. Tests add theirs with ``adding(_:)``.
public struct ProviderRegistry: Sendable {
    private let byId: [String: any CarrierProvider]
    /// The ids in registration order (a repeated id keeps its first place, its last provider).
    private let order: [String]

    public init(_ providers: [any CarrierProvider]) {
        byId = Dictionary(providers.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var seen: Set<String> = []
        order = providers.map(\.id).filter { seen.insert($0).inserted }
    }

    public subscript(id: String) -> (any CarrierProvider)? { byId[id] }

    /// Every registered id, sorted (for messages: "supported: cmcc, …").
    public var ids: [String] { byId.keys.sorted() }

    /// This registry with `providers` added (a test's provider, say).
    public func adding(_ providers: [any CarrierProvider]) -> ProviderRegistry {
        ProviderRegistry(order.compactMap { byId[$0] } + providers)
    }

    /// The registered providers' emulators, in registration order (the sandbox's routes).
    public var emulators: [any ProviderEmulator] { order.compactMap { byId[$0]?.emulator } }

    /// The registered providers, in registration order (the bench plan's rows).
    public var providers: [any CarrierProvider] { order.compactMap { byId[$0] } }
}
