import PassgateState
import PassgateTestSupport
import Testing

/// A Redis with `requirepass` and an ACL user, as managed Redis services run it.
@Suite("RedisStateStore: AUTH", .serialized)
struct RedisAuthTests {
    @Test("requirepass and ACL users: the right credentials work; wrong or missing ones fail clearly, naming the config keys")
    func credentials() async throws {
        try await RedisServerProcess.with { server in
            _ = try server.cli("ACL", "SETUSER", "passgate", "on", ">app-secret", "~*", "+@all")
            _ = try server.cli("CONFIG", "SET", "requirepass", "default-secret")
            let value = Array("outcome".utf8)
            let key = try randomKey()  // one replay encryption key, as instances sharing Redis have

            try await withStore(server, credentials: RedisCredentials(password: "default-secret"), key: key) { store in
                try await store.ping()
                _ = try await store.settle("k", value: value, ttlMs: 120_000, owner: nil)
                #expect(try await store.get("k") == value)
            }
            try await withStore(server, credentials: RedisCredentials(username: "passgate", password: "app-secret"), key: key) { store in
                let stored = try await store.get("k")
                #expect(stored == value)
            }

            try await withStore(server, credentials: RedisCredentials(username: "passgate", password: "wrong")) { store in
                let error = await #expect(throws: StateStoreError.self) { try await store.get("k") }
                #expect(error?.kind == .unavailable)
                #expect(error?.message.contains("refused the credentials for user passgate (WRONGPASS)") == true, "\(String(describing: error))")
                #expect(error?.message.contains("state.redisPassword") == true)
                #expect(error?.message.contains("wrong") == false, "the password must not be echoed")
            }
            try await withStore(server) { store in
                let error = await #expect(throws: StateStoreError.self) { try await store.get("k") }
                #expect(error?.kind == .unavailable)
                #expect(error?.message.contains("requires a password (NOAUTH): set state.redisPassword") == true, "\(String(describing: error))")
            }
        }
    }

    @Test("credentials never print their password")
    func redacted() {
        let credentials = RedisCredentials(username: "passgate", password: "s3cret-value")
        #expect(!"\(credentials)".contains("s3cret"))
        #expect(!String(reflecting: credentials).contains("s3cret"))
        #expect("\(credentials)".contains("passgate"))
    }
}
