import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the configuration on every SIGHUP until the service group shuts down.
struct ReloadSignalService: Service {
    let reloader: ConfigurationReloader

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            // A rejected reload is logged by the reloader; the process keeps serving either way.
            _ = try? await reloader.reload(trigger: "SIGHUP")
        }
    }
}
