import FuzzSupport
import PassgateConfig
import PassgateCore
import PassgateProviders

// Fuzzes the configuration reader with a YAML document: what `passgate serve` and `check-config`
// read, from a file an operator (or a stranger's pull request, or a ConfigMap) may have written.
// Each input is the whole document, given to `ConfigurationLoader.load(yaml:baseDirectory:)`.
//
// The loader gets a fixed environment (no PASSGATE_* overrides; the secrets the seeds' env:
// references name) and file access that refuses everything (`ConfigurationFiles.refusing`): a
// `file:/dev/zero` secret, a `caFile`, a `sandbox:` key or the audit path touch nothing, and are
// reported as unreadable. Invariants: no crash or hang; a configuration, or at least one problem,
// each with a message that names its key and never holds a secret's value; a configuration's
// sandbox listens on loopback only.

private let secretValues = ["fuzz-cmcc-secret-6f1e2d3c4b5a69788796a5b4", "fuzzappkey0000a1", "fuzz-redis-password-5d4c3b2a"]
private let environment = [
    "CMCC_APP_SECRET": secretValues[0], "CMCC_APP_KEY": secretValues[1], "REDIS_PASSWORD": secretValues[2],
    "PASSGATE_REPLAY_KEY": String(repeating: "ab", count: 32),
]
private let loader = ConfigurationLoader(
    environment: environment, registry: .builtIn, sandboxFaults: ["none", "http500", "html", "noAnswer"], files: .refusing)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let yaml = String(decoding: input, as: UTF8.self)
    // A secret the input spells out itself may be quoted back (as a key name, say): not a leak.
    let secrets = secretValues.filter { !yaml.contains($0) }
    do {
        let configuration = try loader.load(yaml: yaml, baseDirectory: "/nonexistent/passgate-fuzz")
        Invariant.check(
            SandboxSettings.isAllowedHost(configuration.sandbox.host), "a configuration with sandbox.host \(configuration.sandbox.host)")
    } catch {
        Invariant.check(!error.problems.isEmpty, "a ConfigurationError without a problem")
        for problem in error.problems {
            Invariant.check(!problem.message.isEmpty, "a problem at '\(problem.path)' without a message")
            Invariant.check(names(problem), "a problem at '\(problem.path)' whose message does not name it: \(problem.message)")
            Invariant.check(problem.line.map { $0 >= 1 } ?? true, "a problem at line \(problem.line ?? 0): \(problem.message)")
            for secret in secrets {
                Invariant.check(!problem.message.contains(secret), "a problem message holds a secret's value: \(problem.message)")
            }
        }
    }
    return 0
}

/// Whether the message names the problem's key: its whole path, or (`unknown key 'x' in server`,
/// `unknown provider 'x'`) the key after some dot of the path, quoted, the section being named or
/// implied. A long key is quoted cut short, ending in `…` (`Quote.value`).
///
/// Paths are split and searched as UTF-8 bytes, not Characters: a key may start with a combining
/// mark, which fuses with the dot before it into one Character (a fuzz finding, see Findings/).
private func names(_ problem: ConfigurationProblem) -> Bool {
    let path = problem.path, message = Array(problem.message.utf8)
    if path.isEmpty || contains(message, path) { return true }
    let bytes = Array(path.utf8)
    return bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }.contains { dot in
        let key = String(decoding: bytes[(dot + 1)...], as: UTF8.self)
        return contains(message, "'\(key)'") || (key.count > 60 && contains(message, "'\(key.prefix(57))…'"))
    }
}

private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let needle = Array(needle.utf8)
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzConfiguration_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzConfiguration)
}
