/// The plan as one JSON object, what `passgate bench-plan --json` prints for `bench/harness/
/// benchplan.py`:
/// `{"phoneNumber", "providers": [{"id", "settings", "apps": [{"appId", "settings"}]}],
/// "scenarios": [{"name", "label", "provider", "operation", "appId", "upstream", "upstreamSuccess",
/// "privateKeyOperations", "coverage", "fields"}], "undescribed": [id]}`, a setting being
/// `{"key", "kind": "plain"|"secret"|"rsa-key", "value"?}` and a field
/// `{"name", "kind": "fixed"|"unique"|"token", "value"?}` (a unique one's value is its prefix; a
/// token one has none: the request's token is its value). The secrets are the descriptions'
/// made-up sandbox credentials.
extension BenchPlan {
    public var json: [UInt8] {
        var object = JSONObjectWriter()
        object.add("phoneNumber", BenchLoad.phoneNumber)
        object.add("providers", json: Self.array(entries.map { entry in
            var provider = JSONObjectWriter()
            provider.add("id", entry.provider)
            provider.add("settings", json: Self.array(entry.load.providerSettings.map(Self.setting)))
            provider.add("apps", json: Self.array(entry.load.apps.map { app in
                var writer = JSONObjectWriter()
                writer.add("appId", app.appId)
                writer.add("settings", json: Self.array(app.settings.map(Self.setting)))
                return writer
            }))
            return provider
        }))
        object.add("scenarios", json: Self.array(scenarios.map { provider, scenario in
            var writer = JSONObjectWriter()
            writer.add("name", scenario.name)
            writer.add("label", scenario.label)
            writer.add("provider", provider)
            writer.add("operation", scenario.operation.rawValue)
            writer.add("appId", scenario.appId)
            writer.add("upstream", scenario.upstream)
            writer.add("upstreamSuccess", scenario.upstreamSuccess)
            writer.add("privateKeyOperations", scenario.privateKeyOperations)
            writer.add("coverage", scenario.coverage.rawValue)
            writer.add("fields", json: Self.array(scenario.fields.map(Self.field)))
            return writer
        }))
        object.add("undescribed", strings: undescribed)
        return object.finish()
    }

    private static func setting(_ setting: BenchSetting) -> JSONObjectWriter {
        var writer = JSONObjectWriter()
        writer.add("key", setting.key)
        switch setting.value {
        case .plain(let value):
            writer.add("kind", "plain")
            writer.add("value", value)
        case .secret(let value):
            writer.add("kind", "secret")
            writer.add("value", value)
        case .freshRSAKey:
            writer.add("kind", "rsa-key")
        }
        return writer
    }

    private static func field(_ field: BenchField) -> JSONObjectWriter {
        var writer = JSONObjectWriter()
        writer.add("name", field.name)
        switch field.value {
        case .fixed(let value):
            writer.add("kind", "fixed")
            writer.add("value", value)
        case .unique(let prefix):
            writer.add("kind", "unique")
            writer.add("value", prefix)
        case .token:
            writer.add("kind", "token")
        }
        return writer
    }

    /// `[{…},{…}]`: objects, each finished here.
    private static func array(_ objects: [JSONObjectWriter]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var object = object
            bytes += object.finish()
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
