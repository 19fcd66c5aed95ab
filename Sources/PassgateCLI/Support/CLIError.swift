import ArgumentParser
import Foundation
import PassgateServer

/// A command failure with a message for the terminal and a sysexits(3) exit code.
struct CLIError: Error, CustomStringConvertible {
    /// sysexits codes, so scripts can tell a typo from a broken key.
    enum Status: Int32 {
        case usage = 64
        case dataError = 65
        case noInput = 66
        case software = 70
        case cannotCreate = 73
    }

    let status: Status
    let description: String

    init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }
}

extension ParsableCommand {
    /// Runs `body`, turning a `CLIError` into its message on stderr and its exit code.
    func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode(error.status.rawValue)
        }
    }
}

extension ListenerBindError {
    /// EX_UNAVAILABLE from sysexits(3): the configuration is valid, but an address it names
    /// cannot be taken on this machine now.
    static let exitStatus: Int32 = 69

    /// Runs `body`; a ``ListenerBindError`` it throws becomes its message on stderr and exit 69,
    /// instead of ArgumentParser's generic `Error:` line and exit 1.
    static func exitingOnFailure<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ListenerBindError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode(exitStatus)
        }
    }
}
