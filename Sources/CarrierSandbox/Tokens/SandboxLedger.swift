import PassgateCore

/// The sandbox's mutable state: tokens, seen msgids, quotas and statistics. Lives in one
/// `Mutex`; every method is short and never does crypto or I/O.
struct SandboxLedger {
    static let mintWindowMs: Int64 = 600_000
    static let msgidWindowMs: Int64 = 600_000
    static let maxUnusedPerNumber = 30

    private let lifetimeMs: Int64
    private let benchMode: Bool
    private var tokens: [String: TokenRecord] = [:]
    private var tokenQueue = ExpiryQueue<(token: String, phone: String)>()
    /// Tokens per number in mint order, for the 30-per-10-minutes limit (not kept in bench mode).
    private var mintsByNumber: [String: [String]] = [:]
    private var seenMsgids: Set<String> = []
    private var msgidQueue = ExpiryQueue<String>()
    private var quotas: [String: Int]
    var stats = SandboxStats()

    init(lifetimeMs: Int64, benchMode: Bool, quotas: [String: Int]) {
        self.lifetimeMs = lifetimeMs
        self.benchMode = benchMode
        self.quotas = quotas
    }

    /// Adds freshly minted tokens, enforcing the per-number limit outside bench mode.
    mutating func add(
        _ newTokens: [String], appId: String, phoneNumber: String, product: SandboxProduct, now: Int64
    ) throws(SandboxError) {
        sweep(now: now)
        if newTokens.contains(where: { tokens[$0] != nil }) {
            throw .field("token", "this token is already registered")
        }
        if !benchMode {
            let unused = mintsByNumber[phoneNumber, default: []].count { tokens[$0] != nil }
            guard unused + newTokens.count <= Self.maxUnusedPerNumber else {
                throw SandboxError(
                    .tokenLimit, field: "phoneNumber",
                    message: "phoneNumber: \(unused) unused tokens were minted for this number in the last 10 minutes; "
                        + "a carrier allows at most \(Self.maxUnusedPerNumber) (use some, wait, or run the sandbox in benchMode)"
                )
            }
        }
        // Outside bench mode a record outlives its token for the 10-minute limit window.
        let retentionMs = benchMode ? lifetimeMs : max(lifetimeMs, Self.mintWindowMs)
        for token in newTokens {
            tokens[token] = TokenRecord(appId: appId, phoneNumber: phoneNumber, product: product, expiresAtMs: now + lifetimeMs)
            tokenQueue.append((token, phoneNumber), deadline: now + retentionMs)
            if !benchMode { mintsByNumber[phoneNumber, default: []].append(token) }
        }
        stats.tokensMinted += newTokens.count
    }

    /// Records a msgid; `false` if it was seen within the last 10 minutes.
    mutating func noteMsgid(_ key: String, now: Int64) -> Bool {
        sweep(now: now)
        guard seenMsgids.insert(key).inserted else { return false }
        msgidQueue.append(key, deadline: now + Self.msgidWindowMs)
        return true
    }

    /// Spends `token` if it is valid now.
    mutating func consume(_ token: String, now: Int64) -> TokenLookup {
        sweep(now: now)
        guard let record = tokens[token] else { return .unknown }
        guard now < record.expiresAtMs else { return .expired }
        tokens[token] = nil
        stats.tokensConsumed += 1
        return .consumed(record)
    }

    /// Charges one billable call to `appId`; `false` when its quota is used up.
    mutating func charge(appId: String) -> Bool {
        guard let remaining = quotas[appId] else { return true }
        guard remaining > 0 else { return false }
        quotas[appId] = remaining - 1
        return true
    }

    /// Tokens and msgids held after sweeping at `now`: what the memory bound is about.
    mutating func retainedCounts(now: Int64) -> (tokens: Int, msgids: Int, numbers: Int) {
        sweep(now: now)
        return (tokens.count, seenMsgids.count, mintsByNumber.count)
    }

    /// Drops tokens and msgids past their retention.
    private mutating func sweep(now: Int64) {
        tokenQueue.removeExpired(now: now) { entry in
            tokens[entry.token] = nil
            guard !benchMode, var list = mintsByNumber[entry.phone] else { return }
            if list.first == entry.token {
                list.removeFirst()
            } else if let index = list.firstIndex(of: entry.token) {
                list.remove(at: index)
            }
            mintsByNumber[entry.phone] = list.isEmpty ? nil : list
        }
        msgidQueue.removeExpired(now: now) { seenMsgids.remove($0) }
    }
}
