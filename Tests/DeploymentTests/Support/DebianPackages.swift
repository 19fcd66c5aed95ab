import Foundation
import PassgateTestSupport

/// What dpkg knows on this machine (Debian bookworm, like the runtime image).
struct DebianPackages {
    struct Package {
        let name: String
        let essential: Bool
        let priority: String
        /// `Pre-Depends` and `Depends`, each an alternative group (`a | b`), names only.
        let dependencies: [[String]]
        let provides: [String]
    }

    let installed: [String: Package]

    /// Every installed package, from `dpkg-query -W`.
    static func load() async throws -> DebianPackages {
        let format = "${Package}\\t${Essential}\\t${Priority}\\t${Pre-Depends}, ${Depends}\\t${Provides}\\t${db:Status-Status}\\n"
        let result = try await Subprocess.run("dpkg-query", ["-W", "-f", format])
        guard result.status == 0 else { throw Failure("dpkg-query -W failed: \(result.stderrText)") }
        var installed: [String: Package] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, fields[5] == "installed" else { continue }
            let groups = fields[3].split(separator: ",")
                .map { group in group.split(separator: "|").map(Self.packageName) }
                .filter { !$0.isEmpty && !$0[0].isEmpty }
            let provides = fields[4].split(separator: ",").map(Self.packageName).filter { !$0.isEmpty }
            let package = Package(name: fields[0], essential: fields[1] == "yes", priority: fields[2], dependencies: groups, provides: provides)
            // Multi-arch packages appear once per architecture; their dependencies are the same.
            installed[fields[0]] = installed[fields[0]] ?? package
        }
        return DebianPackages(installed: installed)
    }

    /// `libc6:any (>= 2.34)` -> `libc6`
    static func packageName(_ item: Substring) -> String {
        let name = item.trimmingCharacters(in: .whitespaces).prefix { $0 != " " && $0 != "(" }
        return String(name.prefix { $0 != ":" })
    }

    /// `packages` and everything apt installs with them (Pre-Depends and Depends, not Recommends:
    /// the Dockerfile passes --no-install-recommends), resolved against what is installed here.
    func closure(of packages: Set<String>) -> Set<String> {
        var providers: [String: String] = [:]
        for package in installed.values { for virtual in package.provides { providers[virtual] = providers[virtual] ?? package.name } }
        var result = packages
        var pending = Array(packages)
        while let name = pending.popLast() {
            for group in installed[name]?.dependencies ?? [] {
                let choice = group.first { installed[$0] != nil } ?? group.lazy.compactMap { providers[$0] }.first
                if let choice, result.insert(choice).inserted { pending.append(choice) }
            }
        }
        return result
    }

    /// What `debian:bookworm-slim` contains before the Dockerfile installs anything: debootstrap's
    /// minbase (Essential and Priority required packages) plus apt, with their dependencies.
    var baseImage: Set<String> {
        closure(of: Set(installed.values.filter { $0.essential || $0.priority == "required" }.map(\.name)).union(["apt"]))
    }

    /// The package that owns each file (`dpkg-query -S`). With merged /usr, ldd reports
    /// `/lib/x86_64-linux-gnu/libssl.so.3` while dpkg recorded `/usr/lib/…` (or the reverse for
    /// libc6): each path is tried as given, through its symlinks, and under the other prefix.
    static func owners(of paths: [String]) async throws -> [String: String] {
        func aliases(_ path: String) -> [String] {
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return [path, resolved].flatMap { $0.hasPrefix("/usr/") ? [$0, String($0.dropFirst(4))] : [$0, "/usr" + $0] }
        }
        let candidates = Array(Set(paths.flatMap(aliases)))
        // dpkg-query exits 1 when some of them are unknown; the known ones are still printed.
        let result = try await Subprocess.run("dpkg-query", ["-S"] + candidates)
        var ownerOfCandidate: [String: String] = [:]
        for line in result.stdoutText.split(separator: "\n") where !line.hasPrefix("diversion") {
            guard let separator = line.range(of: ": /") else { continue }
            let owners = line[..<separator.lowerBound].split(separator: ",").map(packageName)
            ownerOfCandidate[String(line[line.index(before: separator.upperBound)...])] = owners.first
        }
        var owners: [String: String] = [:]
        for path in paths {
            guard let owner = aliases(path).lazy.compactMap({ ownerOfCandidate[$0] }).first else {
                throw Failure("no installed package owns \(path) (dpkg-query -S): \(result.stderrText)")
            }
            owners[path] = owner
        }
        return owners
    }
}
