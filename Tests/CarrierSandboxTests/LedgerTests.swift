@testable import CarrierSandbox
import PassgateCore
import Testing

/// The in-memory state forgets what it no longer needs, so a long run stays bounded.
@Suite("ledger")
struct LedgerTests {
    @Test func expiredTokensAndMsgidsAreForgottenAfterTheirWindows() throws {
        var ledger = SandboxLedger(lifetimeMs: 120_000, benchMode: false, quotas: [:])
        for index in 0..<100 {
            let phone = "1380013\(1000 + index)"
            try ledger.add([try SandboxToken.make(nowMs: 0)], appId: "a", phoneNumber: phone, product: .login, now: 0)
            let noted = ledger.noteMsgid("m\(index)", now: 0)
            #expect(noted)
        }
        let duplicate = ledger.noteMsgid("m1", now: 1)
        let fresh = ledger.retainedCounts(now: 1)
        // Past the token lifetime the records stay for the 10-minute mint limit...
        let afterLifetime = ledger.retainedCounts(now: 121_000)
        // ...and after 10 minutes everything is gone.
        let afterWindow = ledger.retainedCounts(now: 600_000)
        let reusable = ledger.noteMsgid("m1", now: 600_000)
        #expect(!duplicate)
        #expect(fresh == (100, 100, 100))
        #expect(afterLifetime.tokens == 100)
        #expect(afterWindow == (0, 0, 0))
        #expect(reusable)
    }

    @Test func benchModeKeepsTokensOnlyForTheirLifetime() throws {
        var ledger = SandboxLedger(lifetimeMs: 120_000, benchMode: true, quotas: [:])
        let tokens = try (0..<1000).map { _ in try SandboxToken.make(nowMs: 0) }
        try ledger.add(tokens, appId: "a", phoneNumber: "13800138000", product: .login, now: 0)
        let live = ledger.retainedCounts(now: 119_999).tokens
        let expired = ledger.retainedCounts(now: 120_000).tokens
        #expect(live == 1000)
        #expect(expired == 0)
    }

    @Test func aTokenIsSpentOnceAndExpiresAtItsLifetime() throws {
        var ledger = SandboxLedger(lifetimeMs: 120_000, benchMode: false, quotas: ["a": 1])
        let (first, second) = (try SandboxToken.make(nowMs: 0), try SandboxToken.make(nowMs: 0))
        try ledger.add([first, second], appId: "a", phoneNumber: "13800138000", product: .verify, now: 0)
        guard case .consumed(let record) = ledger.consume(first, now: 1) else { Issue.record("not consumed"); return }
        #expect(record.product == .verify && record.phoneNumber == "13800138000")
        guard case .unknown = ledger.consume(first, now: 2) else { Issue.record("spent twice"); return }
        guard case .expired = ledger.consume(second, now: 120_000) else { Issue.record("not expired"); return }
        let charges = [ledger.charge(appId: "a"), ledger.charge(appId: "a"), ledger.charge(appId: "unmetered")]
        #expect(charges == [true, false, true])
    }

    @Test func mintedTokensHaveTheSDKShape() throws {
        let token = try SandboxToken.make(nowMs: 1_551_151_128_045)
        #expect(token.count == 56)
        #expect(token.hasPrefix("STsid0001551151128045"))
        #expect(SandboxToken.hasTokenShape(token))
        #expect(SandboxToken.hasTokenShape("STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ"))
        #expect(!SandboxToken.hasTokenShape("STsid00000015511KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ+/abcdef"))
        #expect(!SandboxToken.hasTokenShape(String(token.dropLast(10))))
        #expect(Set((0..<200).map { _ in try! SandboxToken.make(nowMs: 0) }).count == 200)
    }
}
