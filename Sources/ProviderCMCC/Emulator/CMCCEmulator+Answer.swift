import PassgateCore

extension CMCCEmulator {
    /// CMCC's decision on one call and its reply: flat for `loginTokenValidate`, `header` and
    /// `body` for `tokenValidate`, with the carrier's field order.
    struct Answer: DescribedEmulatorAnswer {
        var product: SandboxProduct
        var code = ""
        var desc = ""
        var echo = ""
        var appId = ""
        /// Sandbox "now" in Beijing time, the reply's `systemtime` / `header.timestamp`.
        var timestamp: String
        /// Login success: the msisdn as sent (plain, or RSA ciphertext in hex).
        var msisdn: String?
        var taskId: String?
        /// Number verification: passed through from the request body.
        var message = ""
        var expandParams = ""
        var phoneNumber: String?

        init(_ product: SandboxProduct, now: Int64) {
            self.product = product
            self.timestamp = BeijingTimestamp.string(milliseconds: now)
        }

        var provider: String { CMCC.providerID }
        var httpStatus: Int { 200 }

        var isSuccess: Bool {
            product == .login ? code == "103000" : code == "000" || code == "001"
        }

        func forced(_ code: String) -> Answer {
            let table = product == .login ? CMCC.loginCodes : CMCC.verifyCodes
            var copy = answer(code, table.entries[code]?.meaning ?? "forced by PUT /sandbox/faults")
            copy.msisdn = nil
            return copy
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
