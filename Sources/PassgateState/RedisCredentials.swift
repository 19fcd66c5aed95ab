import PassgateCore

/// What a Redis with `requirepass` or ACL users needs: sent as `AUTH [username] password` on every
/// new connection, before anything else. Never printed: it describes itself by its user only.
public struct RedisCredentials: Sendable, Hashable, RedactedDescription {
    /// ACL user (Redis 6+); `nil` authenticates as the default user (`requirepass`).
    public var username: String?
    public var password: String

    public init(username: String? = nil, password: String) {
        self.username = username
        self.password = password
    }

    /// The `AUTH` command's arguments.
    var authArguments: [[UInt8]] {
        [Array("AUTH".utf8)] + (username.map { [Array($0.utf8)] } ?? []) + [Array(password.utf8)]
    }

    public var redactedFields: [(label: String, value: String)] { [("username", username ?? "default")] }
}
