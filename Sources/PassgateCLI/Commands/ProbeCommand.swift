import ArgumentParser
import CurlTransport
import Foundation
import Logging

/// `passgate probe`: one `GET` against a running instance, for container `HEALTHCHECK`s and
/// scripts on hosts without the curl command line (the runtime image ships libcurl, not curl).
///
/// It deliberately does not read the configuration file: a health check probes the process, and
/// loading secrets every few seconds could fail for reasons that say nothing about the process.
/// The port follows `PASSGATE_SERVER_PORT`, the same override `serve` honours.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "GET a health path of a running Passgate; exit 0 on a 2xx answer, 1 otherwise.",
        discussion: """
            Prints the status and the body (for /readyz: which check fails). Exit 0 healthy, 1 unhealthy \
            or unreachable, 64 bad arguments. Proxy variables are ignored: the probe always goes direct.
            """
    )

    @Option(help: "Address of the API listener.")
    var host = "127.0.0.1"

    @Option(help: "API port (default: $PASSGATE_SERVER_PORT when set, else 8080).")
    var port: Int?

    @Option(help: "Path to GET, e.g. /healthz (liveness) or /readyz (readiness).")
    var path = "/healthz"

    @Option(name: .customLong("timeout-ms"), help: "Give up after this many milliseconds (100-60000).")
    var timeoutMs = 2_000

    /// The port to probe: `--port`, else the environment's `PASSGATE_SERVER_PORT`, else 8080.
    func resolvedPort(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
        if let port { return port }
        guard let text = environment["PASSGATE_SERVER_PORT"], !text.isEmpty else { return 8080 }
        guard let port = Int(text) else {
            throw ValidationError("PASSGATE_SERVER_PORT is '\(text)', not a port number: pass --port")
        }
        return port
    }

    func validate() throws {
        guard (1...65535).contains(try resolvedPort()) else { throw ValidationError("the port must be 1-65535") }
        guard path.hasPrefix("/"), !path.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw ValidationError("--path must start with / and contain no spaces, e.g. /healthz")
        }
        guard (100...60_000).contains(timeoutMs) else { throw ValidationError("--timeout-ms must be 100-60000") }
        guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) }) else {
            throw ValidationError("--host must be an address such as 127.0.0.1 or ::1")
        }
    }

    func run() async throws {
        let authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let url = "http://\(authority):\(try resolvedPort())\(path)"
        var logger = Logger(label: "passgate.probe")
        logger.logLevel = .critical  // the one line below is the whole report
        var settings = CurlHTTPClient.Configuration(connectTimeoutMs: min(timeoutMs, 1_000), timeoutMs: timeoutMs)
        settings.maxConnections = 1
        settings.maxResponseBytes = 64 * 1024
        settings.userAgent = "passgate-probe/1"
        let client = CurlHTTPClient(configuration: settings, logger: logger)
        let outcome: Result<CurlHTTPClient.Response, CurlTransportError>
        do {
            outcome = .success(try await client.send(.init(method: .get, url: url)))
        } catch let error as CurlTransportError {
            outcome = .failure(error)
        }
        await client.shutdown(gracePeriodMs: 0)

        switch outcome {
        case .success(let response):
            // Docker keeps the first 4 KiB of a health check's output: enough for /readyz's checks.
            let body = String(decoding: response.body.prefix(2_048), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let line = "\(url): \(response.status)\(body.isEmpty ? "" : " \(body)")\n"
            if (200..<300).contains(response.status) {
                FileHandle.standardOutput.write(Data(line.utf8))
                return
            }
            FileHandle.standardError.write(Data(line.utf8))
        case .failure(let error):
            FileHandle.standardError.write(Data("\(url): \(error.message)\n".utf8))
        }
        throw ExitCode(1)
    }
}
