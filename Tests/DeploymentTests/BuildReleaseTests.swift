import Foundation
import PassgateTestSupport
import Testing

/// `scripts/build-release` checks the C libraries it links before compiling, so a machine without
/// them gets the package names at once instead of a compiler error minutes in.
@Suite("scripts/build-release")
struct BuildReleaseTests {
    /// The `-dev` packages the script checks, from its `for pair in name:package ...` line.
    static func checkedPackages() throws -> Set<String> {
        let script = try Repository.text("scripts/build-release")
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("for pair in ") },
                                "scripts/build-release has no 'for pair in' line of pkg-config names and packages")
        let pairs = line.dropFirst("for pair in ".count).prefix { $0 != ";" }.split(separator: " ")
        return Set(pairs.compactMap { $0.split(separator: ":").last.map(String.init) })
    }

    @Test("it checks exactly the -dev packages the image's build stage installs")
    func checksTheBuildStagePackages() throws {
        let build = try #require(try Dockerfile.shipped().stages.first)
        let installed = Set(Dockerfile.aptPackages(in: build).filter { $0.hasSuffix("-dev") })
        #expect(!installed.isEmpty)
        #expect(try Self.checkedPackages() == installed)
    }

    @Test("without the libraries it stops before compiling and names the packages to install")
    func namesMissingPackages() async throws {
        // pkg-config finds nothing in an empty search path, as on a machine without the -dev packages.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("pg-no-pc-\(UUID().uuidString)").path
        let result = try await Subprocess.run(
            "/bin/bash", [Repository.path("scripts/build-release"), "--product", "passgate"],
            environment: ["PKG_CONFIG_LIBDIR": empty, "PKG_CONFIG_PATH": empty])
        #expect(result.status == 1)
        let expected = try Self.checkedPackages()
        for package in expected { #expect(result.stderrText.contains(package), "\(package) not named: \(result.stderrText)") }
        #expect(result.stderrText.contains("apt-get install -y"))
        #expect(!result.stdoutText.contains("Compiling"), "it went on to build: \(result.stdoutText)")
    }
}
