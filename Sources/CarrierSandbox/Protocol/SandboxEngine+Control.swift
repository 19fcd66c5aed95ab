import Logging
import PassgateCore
import Synchronization

extension SandboxEngine {
    static let maxBatch = 10_000
    /// The providers whose servers the sandbox emulates, in registration order.
    var emulatedProviders: [String] { emulators.map(\.providerID) }

    /// Mints `count` tokens for a registered app and a mainland number.
    func mint(appId: String, phoneNumber: String, product: SandboxProduct, count: Int = 1) throws(SandboxError) -> [String] {
        try checkMintTarget(appId: appId, phoneNumber: phoneNumber)
        let now = clock.nowMilliseconds()
        var tokens: [String] = []
        tokens.reserveCapacity(count)
        for _ in 0..<count {
            guard let token = try? SandboxToken.make(nowMs: now) else {
                throw SandboxError(.invalidField, message: "the CSPRNG failed; no token was minted")
            }
            tokens.append(token)
        }
        try ledger.withLock { ledger throws(SandboxError) in
            try ledger.add(tokens, appId: appId, phoneNumber: phoneNumber, product: product, now: now)
        }
        return tokens
    }

    /// Registers a caller-chosen token (a published test vector, a fixture) as if minted now.
    func register(token: String, appId: String, phoneNumber: String, product: SandboxProduct) throws(SandboxError) {
        try checkMintTarget(appId: appId, phoneNumber: phoneNumber)
        guard SandboxToken.hasTokenShape(token) else {
            throw .field("token", "must look like an SDK token: STsid, 16+ digits, base62, 50-60 characters")
        }
        let now = clock.nowMilliseconds()
        try ledger.withLock { ledger throws(SandboxError) in
            try ledger.add([token], appId: appId, phoneNumber: phoneNumber, product: product, now: now)
        }
    }

    private func checkMintTarget(appId: String, phoneNumber: String) throws(SandboxError) {
        guard apps[appId] != nil else {
            let known = apps.keys.sorted().joined(separator: ", ")
            throw SandboxError(.unknownApp, field: "appId", message: "appId: \(appId) is not a sandbox app (known: \(known))")
        }
        guard MSISDN.isMainland(phoneNumber) else {
            throw .field("phoneNumber", "must be an 11-digit mainland mobile number (1[3-9] + 9 digits)")
        }
    }

    /// `POST /sandbox/tokens {"appId", "phoneNumber", "product"?, "count"? (bench mode)}`.
    func mintEndpoint(_ body: [UInt8]) -> SandboxAnswer {
        guard let object = ParsedJSON.sandboxParse(body)?.members else { return .error(400, "body: must be a JSON object") }
        guard let appId = object["appId"]?.stringValue else { return .error(400, "appId: missing or not a string") }
        guard let phoneNumber = object["phoneNumber"]?.stringValue else { return .error(400, "phoneNumber: missing or not a string") }
        var product = SandboxProduct.login
        if let value = object["product"] {
            guard let parsed = value.stringValue.flatMap(SandboxProduct.init(rawValue:)) else {
                return .error(400, "product: must be \"login\" or \"verify\"")
            }
            product = parsed
        }
        var count: Int?
        if let value = object["count"] {
            guard configuration.benchMode else { return .error(400, "count: batch minting needs the sandbox in benchMode") }
            guard let number = value.integer, (1...Self.maxBatch).contains(number) else {
                return .error(400, "count: must be an integer from 1 to \(Self.maxBatch)")
            }
            count = number
        }
        do throws(SandboxError) {
            let tokens = try mint(appId: appId, phoneNumber: phoneNumber, product: product, count: count ?? 1)
            let lifetime = configuration.tokenLifetimeSeconds
            return .json(200, JSONWriter.minted(tokens, batch: count != nil, expiresInSeconds: lifetime))
        } catch {
            return .error(400, error.message)
        }
    }

    /// `PUT /sandbox/faults {"fault"?, "latencyMs"?, "resultCode"?, "provider"? (default: the first emulator registered)}`.
    func faultsEndpoint(_ body: [UInt8]) -> SandboxAnswer {
        guard let object = ParsedJSON.sandboxParse(body)?.members else { return .error(400, "body: must be a JSON object") }
        var fault: SandboxFault?
        if let value = object["fault"] {
            guard let parsed = value.stringValue.flatMap(SandboxFault.init(rawValue:)) else {
                return .error(400, "fault: must be one of \(SandboxFault.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            fault = parsed
        }
        var latency: Int?
        if let value = object["latencyMs"] {
            guard let number = value.integer, (0...600_000).contains(number) else {
                return .error(400, "latencyMs: must be an integer from 0 to 600000")
            }
            latency = number
        }
        // `resultCode`: a code to answer instead of success; "" or null clears it.
        var emulator = emulators.first
        if let value = object["provider"] {
            guard let name = value.stringValue, let named = emulators.first(where: { $0.providerID == name }) else {
                return .error(400, "provider: must be one of \(emulatedProviders.joined(separator: ", "))")
            }
            emulator = named
        }
        var resultCode: (provider: String, code: String)??
        if let value = object["resultCode"] {
            if case .null = value { resultCode = .some(nil) } else if value.stringValue == "" {
                resultCode = .some(nil)
            } else {
                guard let emulator else { return .error(400, "provider: the sandbox emulates no provider") }
                // A non-string is refused with the provider's own description of its codes.
                let code = value.stringValue ?? ""
                if let problem = emulator.forcedCodeProblem(code) { return .error(400, problem) }
                resultCode = .some((emulator.providerID, code))
            }
        }
        guard fault != nil || latency != nil || resultCode != nil else { return .error(400, "body: give fault, latencyMs, resultCode or several") }
        runtime.withLock { settings in
            if let fault { settings.fault = fault }
            if let latency { settings.latencyMs = latency }
            if let resultCode { settings.forcedResultCode = resultCode }
        }
        logger.info("sandbox faults changed", metadata: [
            "fault": .string(fault?.rawValue ?? "unchanged"), "latencyMs": .string(latency.map(String.init) ?? "unchanged"),
            "resultCode": .string(resultCode.map { $0.map { "\($0.provider) \($0.code)" } ?? "none" } ?? "unchanged"),
        ])
        return SandboxAnswer(action: .respond(status: 204, contentType: nil, body: [], headers: []))
    }
}
