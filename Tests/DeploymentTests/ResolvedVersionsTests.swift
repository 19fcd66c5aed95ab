import Foundation
import Testing

/// Every build that ships or is tested uses the dependency versions of the committed
/// `Package.resolved`, never newer ones published since: the image is what CI tested.
@Suite("Reproducible builds: Package.resolved")
struct ResolvedVersionsTests {
    /// `identity -> version (or revision)` of a Package.resolved.
    static func pins(_ relative: String) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: Data(Repository.text(relative).utf8)) as? [String: Any]
        let pins = try #require(object?["pins"] as? [[String: Any]], "\(relative) has no pins")
        return Dictionary(pins.compactMap { pin in
            guard let identity = pin["identity"] as? String, let state = pin["state"] as? [String: Any] else { return nil }
            return (identity, (state["version"] as? String) ?? (state["revision"] as? String) ?? "?")
        }, uniquingKeysWith: { $1 })
    }

    @Test("Package.resolved is committed, not ignored, and pins every remote package Package.swift names")
    func committed() throws {
        let ignored = try Repository.text(".gitignore").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!ignored.contains { $0.hasSuffix("Package.resolved") }, ".gitignore must not hide Package.resolved")
        let pins = try Self.pins("Package.resolved")
        let manifest = try Repository.text("Package.swift")
        let urls = manifest.components(separatedBy: ".package(url: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(!urls.isEmpty)
        for url in urls {
            let identity = URL(string: url)?.lastPathComponent.lowercased().replacingOccurrences(of: ".git", with: "") ?? url
            #expect(pins[identity] != nil, "Package.resolved does not pin \(url)")
        }
    }

    @Test("CI, scripts/build-release, the Dockerfile and Fuzz/run build with --force-resolved-versions")
    func buildsForceTheResolvedVersions() throws {
        for script in ["scripts/test", "scripts/build-release", "scripts/contract"] {
            let builds = try Repository.text(script).split(separator: "\n").filter {
                $0.contains("swift build") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
            }
            #expect(!builds.isEmpty, "\(script) has no swift build line")
            for line in builds { #expect(line.contains("--force-resolved-versions"), "\(script): \(line)") }
        }
        let fuzzFlags = try #require(try Repository.text("Fuzz/run").split(separator: "\n").first { $0.hasPrefix("swift_flags=") })
        #expect(fuzzFlags.contains("--force-resolved-versions"), "Fuzz/run: \(fuzzFlags)")

        let build = try #require(try Dockerfile.shipped().stages.first)
        let copied = build.all("COPY").map(\.arguments)
        #expect(copied.contains { $0.split(separator: " ").contains("Package.resolved") }, "the build stage must copy Package.resolved: \(copied)")
        let resolve = build.all("RUN").map(\.arguments).filter { $0.contains("swift package resolve") }
        #expect(!resolve.isEmpty && resolve.allSatisfy { $0.contains("--force-resolved-versions") }, "\(resolve)")
    }

    @Test("the fuzz package pins only the main package's dependencies, at the same versions")
    func fuzzPinsAgree() throws {
        let main = try Self.pins("Package.resolved")
        let fuzz = try Self.pins("Fuzz/Package.resolved")
        #expect(!fuzz.isEmpty)
        for (identity, version) in fuzz {
            #expect(main[identity] == version, "\(identity): Fuzz/Package.resolved \(version), Package.resolved \(main[identity] ?? "missing")")
        }
    }
}
