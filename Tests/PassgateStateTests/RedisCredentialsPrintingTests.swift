import PassgateState
import Testing

@Suite("Redis credentials print redacted")
struct RedisCredentialsPrintingTests {
    @Test func printingShowsTheUserNeverThePassword() {
        let credentials = RedisCredentials(username: "passgate", password: "pa55-word-secret")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped, "\([credentials])"] {
            #expect(!text.contains("pa55-word-secret"), "printed the password: \(text)")
            #expect(text.contains("passgate"))
        }
        #expect("\(RedisCredentials(password: "x-secret-x"))".contains("default"))
    }
}
