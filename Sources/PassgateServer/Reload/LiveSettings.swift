import PassgateCore
import PassgateConfig
import Synchronization

/// What one API request needs from the configuration, built once per (re)load.
///
/// A request takes one snapshot when it starts and uses it to the end, so a reload in the middle
/// never mixes an old client list with a new app secret.
struct RequestSettings: Sendable {
    /// 1 for the configuration the process started with, +1 per applied reload.
    let generation: Int
    let authenticator: ClientAuthenticator
    let rateLimiter: ClientRateLimiter
    /// Failed authentications per source address; one table for the process (its key,
    /// `server.authFailuresPerMinute`, takes a restart), handed from each settings to the next.
    let authFailures: AuthFailureLimiter
    let apps: [String: AppSettings]
    /// The providers, for the `providerFields` each declares.
    let registry: ProviderRegistry
    let maxBodyBytes: Int
    /// The limiters' clock, handed on to every reload's settings.
    let clock: any PassgateClock

    /// `previous`: the settings this reload replaces (rate-limit buckets carry over, and its clock).
    init(configuration: PassgateConfiguration, generation: Int, previous: RequestSettings? = nil, clock: (any PassgateClock)? = nil) {
        self.generation = generation
        let clock = clock ?? previous?.clock ?? SystemClock()
        self.clock = clock
        authenticator = ClientAuthenticator(clients: configuration.clients)
        rateLimiter = ClientRateLimiter(clients: configuration.clients, carryingOver: previous?.rateLimiter, clock: clock)
        authFailures = previous?.authFailures ?? AuthFailureLimiter(perMinute: configuration.server.authFailuresPerMinute, clock: clock)
        apps = Dictionary(configuration.apps.map { ($0.appId, $0) }, uniquingKeysWith: { first, _ in first })
        registry = configuration.registry
        maxBodyBytes = configuration.server.maxBodyBytes
    }
}

/// The current `RequestSettings`, swapped atomically by a reload.
final class LiveSettings: Sendable {
    private let current: Mutex<RequestSettings>

    init(_ settings: RequestSettings) {
        current = Mutex(settings)
    }

    /// The settings a request starting now uses.
    var snapshot: RequestSettings { current.withLock { $0 } }

    /// The body limit a request starting now is held to (read by the listener before the request
    /// reaches the controller, without copying the whole snapshot).
    var maxBodyBytes: Int { current.withLock { $0.maxBodyBytes } }

    func replace(with settings: RequestSettings) {
        current.withLock { $0 = settings }
    }
}
