/// The Lua scripts behind the claim rules of ``ExchangeStateStore``. Each runs atomically in
/// Redis, so a check and the write it decides are one step for every instance.
///
/// A claim's value is `"<owner> <lease deadline>"`, the deadline in milliseconds of Redis's own
/// clock (`TIME`), so instances never compare their clocks with each other; the key's own expiry
/// is the outcome's lifetime. A value without a space is a claim written by a Passgate from before
/// leases (`SET … NX PX` with the owner alone): it counts as live until Redis expires it, so a
/// rolling upgrade never takes over an older instance's call.
extension RedisStateStore {
    /// Milliseconds of Redis's clock, as a Lua number (exact: far below 2^53).
    private static let nowLua = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "

    /// KEYS: replay key, flight key. ARGV: owner, lease ms, ttl ms.
    /// Returns `{'stored', value}`, `{'held'}`, `{'abandoned'}` or `{'claimed'}`.
    static let claimScript = """
        local stored = redis.call('GET', KEYS[1])
        if stored then return {'stored', stored} end
        \(nowLua)
        local held = redis.call('GET', KEYS[2])
        if held then
          local space = string.find(held, ' ', 1, true)
          if not space then return {'held'} end
          if string.sub(held, 1, space - 1) ~= ARGV[1] then
            if tonumber(string.sub(held, space + 1)) > now then return {'held'} end
            return {'abandoned'}
          end
        end
        redis.call('SET', KEYS[2], ARGV[1] .. ' ' .. string.format('%.0f', now + tonumber(ARGV[2])), 'PX', ARGV[3])
        return {'claimed'}
        """

    /// KEYS: flight key. ARGV: owner, lease ms. Returns 1 when renewed, 0 when not the owner's.
    static let renewScript = """
        local held = redis.call('GET', KEYS[1])
        if not held or string.sub(held, 1, string.len(ARGV[1]) + 1) ~= ARGV[1] .. ' ' then return 0 end
        \(nowLua)
        redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. string.format('%.0f', now + tonumber(ARGV[2])), 'KEEPTTL')
        return 1
        """

    /// KEYS: replay key, flight key. ARGV: sealed value, ttl ms, owner (empty: none).
    /// Returns the value already stored (kept), or nil when this one was stored.
    static let settleScript = """
        local stored = redis.call('GET', KEYS[1])
        if not stored then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
        if ARGV[3] ~= '' then
          local held = redis.call('GET', KEYS[2])
          if held and string.sub(held, 1, string.len(ARGV[3]) + 1) == ARGV[3] .. ' ' then redis.call('DEL', KEYS[2]) end
        end
        return stored
        """

    /// KEYS: flight key. ARGV: owner. Deletes the claim only when it is the owner's.
    static let releaseScript = """
        local held = redis.call('GET', KEYS[1])
        if held and string.sub(held, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then return redis.call('DEL', KEYS[1]) end
        return 0
        """
}
