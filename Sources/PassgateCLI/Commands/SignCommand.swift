import ArgumentParser
import PassgateCore

/// `passgate sign …`: build and sign carrier requests offline, to compare with what the carrier expects.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print the exact signed request Passgate would send (for debugging 103101 / 302 / 9011).",
        subcommands: [SignLoginTokenCommand.self, SignVerifyNumberCommand.self, SignJVerificationCommand.self, SignShanyanCommand.self, SignAliyunCommand.self]
    )
}

/// Options shared by both sign commands: the request identity that is normally generated.
struct PinnedRequestOptions: ParsableArguments {
    @Option(name: .customLong("base-url"), help: "Base URL shown in the request line (default: the provider's first host).")
    var baseURL: String?

    @Flag(name: .customLong("body-only"), help: "Print only the JSON body.")
    var bodyOnly = false

    /// Rejects values CMCC would reject with a confusing code (stray whitespace is the classic 103119).
    static func checkPlain(_ value: String, option: String) throws {
        guard !value.isEmpty else { throw CLIError(.usage, "\(option) is empty") }
        guard !value.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw CLIError(.usage, "\(option) contains whitespace; CMCC answers 103119/103113 for such values")
        }
    }

    static func checkMsgid(_ msgid: String?, option: String) throws -> String {
        guard let msgid else { return MessageID.make() }
        guard MessageID.isWellFormed(msgid) else {
            throw CLIError(.usage, "\(option) must be 1-36 characters of letters, digits and '-'")
        }
        return msgid
    }

    static func checkTimestamp(_ timestamp: String?, option: String) throws -> String {
        guard let timestamp else { return BeijingTimestamp.now(SystemWallClock()) }
        guard BeijingTimestamp.parse(timestamp) != nil else {
            throw CLIError(.usage, "\(option) must be 17 digits yyyyMMddHHmmssSSS in Beijing time, e.g. \(BeijingTimestamp.now(SystemWallClock()))")
        }
        return timestamp
    }

    func print(
        path: String, body: [UInt8], details: [(String, String)],
        headers: [(name: String, value: String)] = [("Content-Type", "application/json;charset=UTF-8")],
        defaultBaseURL: String = "https://www.cmpassport.com"
    ) {
        let json = String(decoding: body, as: UTF8.self)
        guard !bodyOnly else {
            Swift.print(json)
            return
        }
        Swift.print("POST \(baseURL ?? defaultBaseURL)\(path)")
        for header in headers { Swift.print("\(header.name): \(header.value)") }
        Swift.print("")
        Swift.print(json)
        Swift.print("")
        for (label, value) in details { Swift.print("\(label): \(value)") }
    }
}
