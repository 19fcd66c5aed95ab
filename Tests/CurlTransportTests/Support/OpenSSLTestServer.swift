import Foundation
import PassgateTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A TLS server for tests: a self-signed P-256 certificate for `localhost` / 127.0.0.1 made with the
/// `openssl` CLI into a temporary directory, served by `openssl s_server -www` as a subprocess.
final class OpenSSLTestServer: Sendable {
    let directory: URL
    let certificateFile: String
    let keyFile: String
    let port: Int
    private let process: Subprocess.Child

    private init(directory: URL, certificateFile: String, keyFile: String, port: Int, process: Subprocess.Child) {
        self.directory = directory
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.port = port
        self.process = process
    }

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// - Parameter requireClientCertificate: demand a client certificate signed by the server's own
    ///   (self-signed) certificate, so the same cert and key serve as the client's for mutual TLS.
    static func start(requireClientCertificate: Bool = false) async throws -> OpenSSLTestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("curl-transport-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try await run([
            // P-256, not RSA: a 2048-bit RSA key costs about 0.4 s of CPU a server, on cores the
            // whole test process shares; what these tests check does not depend on the key type.
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])

        // Output goes to a file: a pipe might sit in stdio's buffer and hide the ACCEPT line.
        let logPath = directory.appendingPathComponent("s_server.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = try Subprocess.launch(
            "openssl",
            ["s_server", "-www", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key]
                + (requireClientCertificate ? ["-Verify", "1", "-CAfile", certificate] : []),
            stdoutPath: logPath, stderrPath: logPath)

        for _ in 0..<100 {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return OpenSSLTestServer(
                    directory: directory, certificateFile: certificate, keyFile: key, port: port, process: process)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await Self.kill(process)
        throw StartError(description: "openssl s_server did not report its port: \((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
    }

    /// Kills the server (SIGKILL: it holds nothing worth a graceful exit) and removes its files.
    func stop() async {
        await Self.kill(process)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func kill(_ process: Subprocess.Child) async {
        await Task.detached { process.terminate(grace: 0) }.value
    }

    /// Runs `openssl ARGUMENTS` to completion without blocking a cooperative thread.
    private static func run(_ arguments: [String]) async throws {
        let result = try await Subprocess.run("openssl", arguments)
        guard result.status == 0 else {
            throw StartError(description: "openssl \(arguments.first ?? "") exited with \(result.status): \(result.stderrText)")
        }
    }
}
