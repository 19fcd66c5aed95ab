import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener that could not take its address at start. SwiftNIO's own error names the system
/// call and the errno only ("bind(descriptor:ptr:bytes:): Address already in use"); this one
/// names the listener, the address and the settings that choose it, so the fix is in the message.
public struct ListenerBindError: Error, CustomStringConvertible, Equatable {
    /// The listener: `api`, `admin`, `metrics` or `sandbox`.
    public var listener: String
    public var host: String
    public var port: Int
    /// The configuration section whose `host` and `port` chose the address (`server`, `admin`, ...).
    public var section: String
    /// What went wrong, in words.
    public var reason: String

    /// `nil` when `error` is not one of the ways taking an address fails.
    public init?(_ error: any Error, listener: String, host: String, port: Int, section: String) {
        guard let reason = Self.reason(error) else { return nil }
        (self.listener, self.host, self.port, self.section, self.reason) = (listener, host, port, section, reason)
    }

    public var description: String {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "the \(listener) listener cannot listen on \(address) (\(section).host, \(section).port): \(reason)"
    }

    private static func reason(_ error: any Error) -> String? {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return "the address is already in use; stop the process that holds it (ss -ltnp) or choose another port"
            case EACCES: return "permission denied; ports below 1024 need CAP_NET_BIND_SERVICE, or choose a port above 1023"
            case EADDRNOTAVAIL: return "the address is not one of this machine's; use 0.0.0.0, 127.0.0.1 or one of its interfaces"
            default: return nil
            }
        }
        if error is SocketAddressError.UnknownHost {
            return "the host name does not resolve; use an IP address or a name this machine can resolve"
        }
        return nil
    }
}

/// Runs a listener service and turns its failure to take its address into a
/// ``ListenerBindError``, logged as well: under Kubernetes the log is where on-call looks first.
struct BindReportingListener: Service {
    let base: any Service
    let listener: String
    let host: String
    let port: Int
    let section: String
    let logger: Logger

    func run() async throws {
        do {
            try await base.run()
        } catch {
            guard let bind = ListenerBindError(error, listener: listener, host: host, port: port, section: section) else { throw error }
            logger.critical("listener failed to start", metadata: ["listener": .string(listener), "error": .string(bind.description)])
            throw bind
        }
    }
}
