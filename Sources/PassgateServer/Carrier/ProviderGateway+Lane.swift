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
        /// One per base URL, in order (with its host).
        let endpoints: [ProviderEndpoint]
        let breaker: CircuitBreaker
        let limiter: CallLimiter
        /// `passgate_carrier_circuit_open`, one per base URL.
        let circuitGauges: [Gauge]
        let phoneNumberSeries: PassgateMetrics.CarrierSeries
        let verifySeries: PassgateMetrics.CarrierSeries

        init(
            provider: ProviderSettings, metrics: PassgateMetrics, timers: any EventLoopGroup, clock: any PassgateClock
        ) {
            metrics.registerCallCap(provider: provider.id)
            let endpoints = provider.baseURLs.map {
                ProviderEndpoint(
                    baseURL: $0, connectTimeoutMs: provider.connectTimeoutMs, timeoutMs: provider.timeoutMs,
                    options: CarrierHTTPRequest.Options(caFile: provider.caFile, proxy: provider.proxy))
            }
            settings = provider
            self.endpoints = endpoints
            breaker = CircuitBreaker(
                urls: provider.baseURLs, threshold: provider.circuitFailureThreshold, openMs: provider.circuitOpenMs,
                clock: clock)
            limiter = CallLimiter(
                limit: provider.maxConcurrentCalls, maxWait: .milliseconds(provider.callQueueTimeoutMs), timers: timers
            ) { waiting in
                metrics.recordQueuedCalls(provider: provider.id, waiting: waiting)
            }
            circuitGauges = endpoints.map { metrics.circuitGauge(provider: provider.id, host: $0.host) }
            phoneNumberSeries = metrics.carrierSeries(provider: provider.id, operation: .phoneNumber)
            verifySeries = metrics.carrierSeries(provider: provider.id, operation: .verify)
        }

        func series(_ operation: CarrierCall.Operation) -> PassgateMetrics.CarrierSeries {
            switch operation {
            case .phoneNumber: phoneNumberSeries
            case .verify: verifySeries
            }
        }
    }
}
