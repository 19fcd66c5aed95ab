import CoreMetrics
import NIOCore
import PassgateConfig
import PassgateCore

extension ProviderGateway {
    /// What one provider's calls need, made at start-up: a call then costs one dictionary lookup
    /// for all of it, and no base URL is parsed or hashed per call. A class, so that taking it out
    /// of the dictionary retains one object rather than copying every field (each copy of a
    /// reference is an atomic count update on memory all request threads share).
    final class Lane: Sendable {
        let settings: ProviderSettings
        /// Where phone-number calls go, and verifications unless ``verifyRoute`` is set.
        let baseRoute: Route
        /// Where verifications go when the provider serves them on other hosts (`verifyBaseURLs`).
        let verifyRoute: Route?
        /// One cap for both: they are calls to the same provider, on the same account.
        let limiter: CallLimiter
        let phoneNumberSeries: PassgateMetrics.CarrierSeries
        let verifySeries: PassgateMetrics.CarrierSeries

        init(
            provider: ProviderSettings, metrics: PassgateMetrics, timers: any EventLoopGroup, clock: any PassgateClock
        ) {
            metrics.registerCallCap(provider: provider.id)
            settings = provider
            baseRoute = Route(urls: provider.baseURLs, provider: provider, metrics: metrics, clock: clock)
            verifyRoute = provider.verifyBaseURLs.isEmpty ? nil : Route(urls: provider.verifyBaseURLs, provider: provider, metrics: metrics, clock: clock)
            limiter = CallLimiter(
                limit: provider.maxConcurrentCalls, maxWait: .milliseconds(provider.callQueueTimeoutMs), timers: timers
            ) { waiting in
                metrics.recordQueuedCalls(provider: provider.id, waiting: waiting)
            }
            phoneNumberSeries = metrics.carrierSeries(provider: provider.id, operation: .phoneNumber)
            verifySeries = metrics.carrierSeries(provider: provider.id, operation: .verify)
        }

        func series(_ operation: CarrierCall.Operation) -> PassgateMetrics.CarrierSeries {
            switch operation {
            case .phoneNumber: phoneNumberSeries
            case .verify: verifySeries
            }
        }

        /// The base URLs `operation`'s calls go to.
        func route(_ operation: CarrierCall.Operation) -> Route {
            operation == .verify ? verifyRoute ?? baseRoute : baseRoute
        }

        /// Every base URL whose circuit is not closed.
        var openURLs: [String] { baseRoute.breaker.openURLs + (verifyRoute?.breaker.openURLs ?? []) }
    }

    /// One list of base URLs, tried in order, each with its circuit and gauge.
    final class Route: Sendable {
        let urls: [String]
        /// One per base URL, in order (with its host).
        let endpoints: [ProviderEndpoint]
        let breaker: CircuitBreaker
        /// `passgate_carrier_circuit_open`, one per base URL.
        let circuitGauges: [Gauge]

        init(urls: [String], provider: ProviderSettings, metrics: PassgateMetrics, clock: any PassgateClock) {
            self.urls = urls
            endpoints = urls.map {
                ProviderEndpoint(
                    baseURL: $0, connectTimeoutMs: provider.connectTimeoutMs, timeoutMs: provider.timeoutMs,
                    options: CarrierHTTPRequest.Options(caFile: provider.caFile, proxy: provider.proxy))
            }
            breaker = CircuitBreaker(urls: urls, threshold: provider.circuitFailureThreshold, openMs: provider.circuitOpenMs, clock: clock)
            circuitGauges = endpoints.map { metrics.circuitGauge(provider: provider.id, host: $0.host) }
        }
    }
}
