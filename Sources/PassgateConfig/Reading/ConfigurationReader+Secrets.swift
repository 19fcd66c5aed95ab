import Foundation
import OpenSSLCrypto

/// A secret-valued key, resolved. `label` names the key and the reference (`apps[0].secret
/// (env:CMCC_SECRET)`), never the value.
struct ResolvedSecret {
    enum Value {
        case text(String)
        /// `sandbox:NAME`, only where allowed.
        case sandboxKey(String)
    }

    let label: String
    let path: String
    let value: Value
}

extension ConfigurationReader {
    /// Resolves `field` as `env:NAME`, `file:PATH`, `sandbox:NAME` (only when `allowSandboxKey`)
    /// or a literal (only with the sandbox enabled, or straight from an environment override).
    /// Reports and returns `nil` when it cannot.
    /// Messages never quote the value.
    func secret(_ field: Field, allowSandboxKey: Bool = false) -> ResolvedSecret? {
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(field.origin) must be a secret reference such as env:NAME or file:PATH, got \(field.content.kindDescription)")
            return nil
        }
        var reference = SecretReference(parsing: text)
        if case .file(let path) = reference, !path.isEmpty { reference = .file(absolutePath(path)) }
        let label = if case .literal = reference { field.origin } else { "\(field.origin) (\(reference))" }
        let resolved = { (value: ResolvedSecret.Value) in
            if case .text(let text) = value { self.recordSource(field, reference, fingerprint: SecretSource.fingerprint(of: Array(text.utf8))) }
            return ResolvedSecret(label: label, path: field.path, value: value)
        }

        switch reference {
        case .literal(let value):
            guard sandbox.enabled || field.fromEnvironment else {
                report(field.path, "\(field.origin) is a literal; use env:NAME or file:PATH outside the sandbox (literal secrets are allowed only when sandbox.enabled is true)")
                return nil
            }
            guard !value.isEmpty else {
                report(field.path, "\(field.origin) is empty")
                return nil
            }
            return resolved(.text(value))
        case .environment(let name):
            guard Self.isEnvironmentName(name) else {
                report(field.path, "\(field.origin) must name an environment variable after env: (letters, digits and _, e.g. env:CMCC_APP_SECRET)")
                return nil
            }
            guard let value = environment[name], !value.isEmpty else {
                report(field.path, "\(field.origin): environment variable \(name) is not set or empty; export it, or point the key at file:PATH")
                return nil
            }
            return resolved(.text(value))
        case .file(let path):
            guard !path.isEmpty else {
                report(field.path, "\(field.origin) must name a file after file: (e.g. file:/run/secrets/cmcc-secret)")
                return nil
            }
            let value: String
            do {
                value = try reference.resolve(environment: environment, files: files)
            } catch {
                report(field.path, "\(label): \(error.description)")
                return nil
            }
            guard !value.isEmpty else {
                report(field.path, "\(label): the file is empty")
                return nil
            }
            return resolved(.text(value))
        case .sandbox(let name):
            guard allowSandboxKey else {
                report(field.path, "\(field.origin) cannot be sandbox:\(name): sandbox: references are only for privateKey (the sandbox generates RSA keys, not secrets)")
                return nil
            }
            guard sandbox.enabled else {
                report(field.path, "\(field.origin) is sandbox:\(name), which needs sandbox.enabled: true; outside the sandbox use file:PATH")
                return nil
            }
            guard SandboxKeyStore.isValidName(name) else {
                report(field.path, "\(field.origin) must name a sandbox key after sandbox: (letters, digits, '-', '_' and '.', e.g. sandbox:app-rsa)")
                return nil
            }
            return resolved(.sandboxKey(name))
        }
    }

    /// A text secret (`secret`, `appKey`): resolved and free of surrounding whitespace. `nil` when reported.
    func textSecret(_ field: Field, purpose: String) -> String? {
        guard let secret = secret(field) else { return nil }
        guard case .text(let value) = secret.value else { return nil }
        guard value == value.trimmingCharacters(in: .whitespacesAndNewlines) else {
            report(secret.path, "\(secret.label) has leading or trailing whitespace, which \(purpose); remove it where the secret is defined")
            return nil
        }
        return value
    }

    /// An RSA private key: PEM or base64 DER text, or a generated `sandbox:NAME` key. `nil` when reported.
    func loadPrivateKey(_ field: Field) -> RSAPrivateKey? {
        guard let secret = secret(field, allowSandboxKey: true) else { return nil }
        switch secret.value {
        case .text(let text):
            do {
                return try RSAPrivateKey(text: text)
            } catch let error as OpenSSLError {
                report(secret.path, "\(secret.label): \(error.reason)")
            } catch {
                report(secret.path, "\(secret.label): cannot load the private key (\(error))")
            }
            return nil
        case .sandboxKey(let name):
            let result = sandboxKeys[name] ?? Result { () throws(SandboxKeyError) in
                try files.sandboxKey(name, sandbox.keyDirectory)
            }
            sandboxKeys[name] = result
            switch result {
            case .success(let key):
                recordSource(field, .sandbox(name), fingerprint: SecretSource.fingerprint(of: (try? key.publicKey.der()) ?? []))
                return key
            case .failure(let error):
                report(secret.path, "\(secret.label): \(error.description)")
                return nil
            }
        }
    }

    /// `state.replayKey`: 64 hex characters, or base64 of at least 32 bytes. `nil` when reported.
    func replayKey(_ field: Field) -> [UInt8]? {
        guard let secret = secret(field) else { return nil }
        guard case .text(let text) = secret.value else { return nil }
        guard text == text.trimmingCharacters(in: .whitespacesAndNewlines) else {
            report(secret.path, "\(secret.label) has leading or trailing whitespace; remove it where the key is defined")
            return nil
        }
        if text.count == 64, let bytes = Hex.decode(text) { return bytes }
        if let data = Data(base64Encoded: text), data.count >= 32 { return [UInt8](data) }
        report(
            secret.path,
            "\(secret.label) must be 64 hex characters or base64 of at least 32 random bytes (it has \(text.count) characters); "
                + "generate one with: openssl rand -hex 32"
        )
        return nil
    }

    /// Notes where the secret at `field` came from (`PassgateConfiguration.secrets`); a key read
    /// twice (an app's key shared) is noted once.
    func recordSource(_ field: Field, _ reference: SecretReference, fingerprint: String) {
        let source = switch reference {
        case .literal: field.fromEnvironment ? "literal (environment override)" : "literal (sandbox)"
        default: reference.description
        }
        secretSources.removeAll { $0.path == field.path }
        secretSources.append(SecretSource(path: field.path, source: source, fingerprint: fingerprint))
    }

    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
