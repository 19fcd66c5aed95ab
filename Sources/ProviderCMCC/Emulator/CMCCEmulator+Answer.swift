import PassgateCore

extension CMCCEmulator {
    /// CMCC's decision on one call and its reply: flat for `loginTokenValidate`, `header` and
    /// `body` for `tokenValidate`, with the carrier's field order.
    /// A login's msisdn is sent plain, or as RSA ciphertext in hex.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        /// Sandbox "now" in Beijing time, the reply's `systemtime` / `header.timestamp`.
        var timestamp: String
        /// Number verification: passed through from the request body.
        var message = ""
        var expandParams = ""

        init(_ product: SandboxProduct, now: Int64) {
            decision = EmulatorDecision(product)
            self.timestamp = BeijingTimestamp.string(milliseconds: now)
        }

        var provider: String { CMCC.providerID }
        var httpStatus: Int { 200 }

        var isSuccess: Bool {
            product == .login ? code == "103000" : code == "000" || code == "001"
        }

        func forced(_ code: String) -> Answer {
            let table = product == .login ? CMCC.loginCodes : CMCC.verifyCodes
            return forcing(code, meaning: table.entries[code]?.meaning)
        }

        func body(echo: String) -> [UInt8] {
            switch product {
            case .login:
                var fields: [(String, JSONStringTree)] = [
                    ("inresponseto", .string(echo)), ("systemtime", .string(timestamp)),
                    ("resultCode", .string(code)), ("desc", .string(desc)),
                ]
                if let msisdn { fields.append(("msisdn", .string(msisdn))) }
                if let taskId { fields.append(("taskId", .string(taskId))) }
                return JSONStringTree.object(fields).bytes
            case .verify:
                var body: [(String, JSONStringTree)] = [
                    ("resultDesc", .string(desc)), ("message", .string(message)), ("expandParams", .string(expandParams)),
                ]
                if let taskId { body.append(("taskId", .string(taskId))) }
                return JSONStringTree.object([
                    ("header", .object([
                        ("msgId", .string(echo)), ("timestamp", .string(timestamp)),
                        ("appId", .string(appId)), ("resultCode", .string(code)),
                    ])),
                    ("body", .object(body)),
                ]).bytes
            }
        }
    }
}
