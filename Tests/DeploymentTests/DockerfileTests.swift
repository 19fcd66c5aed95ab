import Foundation
import Testing

/// `deploy/Dockerfile` read statically (no Docker engine here): its stages, what it copies, how
/// the container starts, and that it agrees with the Kubernetes manifests and the configuration.
@Suite("Dockerfile")
struct DockerfileTests {
    @Test("a Swift 6 build stage compiles a static-stdlib release through scripts/build-release; the runtime stage is bookworm-slim")
    func stages() throws {
        let dockerfile = try Dockerfile.shipped()
        try #require(dockerfile.stages.count == 2, "expected a build stage and a runtime stage")
        let build = dockerfile.stages[0], runtime = dockerfile.stages[1]
        #expect(build.image.hasPrefix("swift:6.") && build.image.contains("bookworm"), "build image \(build.image)")
        #expect(build.name == "build")
        // The image is built as the benchmark builds (bench/run): one script, with the code layout.
        #expect(build.all("RUN").contains { $0.arguments.hasPrefix("scripts/build-release --product passgate") })
        #expect(build.all("COPY").contains { $0.arguments == "scripts/build-release scripts/link-order.txt ./scripts/" })
        let script = try Repository.text("scripts/build-release")
        for flag in ["swift build -c release --static-swift-stdlib", "-function-sections", "--section-ordering-file=", "scripts/link-order.txt"] {
            #expect(script.contains(flag), "scripts/build-release lacks \(flag)")
        }
        #expect(runtime.image == "debian:bookworm-slim")
        // The runtime stage takes only built files from the build stage, nothing from the context.
        for copy in runtime.all("COPY") + runtime.all("ADD") {
            #expect(copy.keyword == "COPY" && copy.arguments.hasPrefix("--from=build "), "line \(copy.line): COPY \(copy.arguments)")
        }
    }

    @Test("no configuration or secret is baked into the image")
    func nothingSecretCopied() throws {
        let dockerfile = try Dockerfile.shipped()
        for stage in dockerfile.stages {
            for copy in stage.all("COPY") + stage.all("ADD") where !copy.arguments.hasPrefix("--from=") {
                let sources = copy.arguments.split(separator: " ").dropLast().filter { !$0.hasPrefix("--") }
                for source in sources {
                    #expect(["Package.swift", "Package.resolved", "Sources", "Tests", "scripts/build-release", "scripts/link-order.txt"].contains(source),
                            "line \(copy.line) copies \(source) from the build context")
                }
            }
            for setting in stage.all("ENV") + stage.all("ARG") {
                let lowered = setting.arguments.lowercased()
                let secretLike = ["secret", "password", "apikey", "replaykey", "token"].contains { lowered.contains($0) }
                #expect(!secretLike, "line \(setting.line): \(setting.arguments)")
            }
        }
        let ignore = try Repository.text(".dockerignore").split(separator: "\n").map(String.init)
        for entry in [".build*", ".git", ".passgate"] { #expect(ignore.contains(entry), ".dockerignore lacks \(entry)") }
    }

    @Test("it runs as the Deployment's non-root user, exposes server.port and metrics.port and serves the mounted config")
    func runtimeSettings() throws {
        let runtime = try #require(try Dockerfile.shipped().stages.last)
        let user = try #require(runtime.last("USER"), "no USER: the container would run as root").arguments
        let uid = String(user.prefix { $0 != ":" })
        let (pod, container) = try Kubernetes.apiPod()
        #expect(Int(uid) != nil && uid != "0", "USER \(user) must be a numeric non-root id (runAsNonRoot can verify only numbers)")
        #expect(Int(uid) == (try pod.map("securityContext").int("runAsUser")))

        let port = try Repository.configuration().map("server").int("port")
        let metricsPort = try Repository.configuration().map("metrics").int("port")
        #expect(runtime.all("EXPOSE").flatMap { $0.arguments.split(separator: " ").map(String.init) } == [String(port), String(metricsPort)])

        let entrypoint = try #require(runtime.last("ENTRYPOINT")?.execForm, "ENTRYPOINT in exec form")
        let command = try #require(runtime.last("CMD")?.execForm, "CMD in exec form")
        #expect(entrypoint == [Self.installedBinary(runtime)])
        #expect(command == (try container.strings("args")), "the image's default command and the Deployment's args should agree")

        // Swift's crash backtracer is where SWIFT_BACKTRACE says.
        let backtracer = runtime.all("COPY").map(\.arguments).first { $0.contains("swift-backtrace-static") }?.split(separator: " ").last
        let environment = runtime.all("ENV").map(\.arguments).first { $0.hasPrefix("SWIFT_BACKTRACE=") } ?? ""
        #expect(backtracer != nil && environment.contains("swift-backtrace=\(backtracer ?? "")"), "SWIFT_BACKTRACE must name the copied backtracer")
    }

    @Test("the HEALTHCHECK runs the passgate binary itself, not a tool the image lacks")
    func healthcheck() throws {
        let runtime = try #require(try Dockerfile.shipped().stages.last)
        let healthcheck = try #require(runtime.last("HEALTHCHECK"), "no HEALTHCHECK")
        let argv = try #require(Self.healthcheckCommand(healthcheck), "HEALTHCHECK CMD in exec form")
        #expect(argv.first == Self.installedBinary(runtime))
        #expect(Array(argv.dropFirst().prefix(1)) == ["probe"])
        let packages = Dockerfile.aptPackages(in: runtime)
        for tool in ["curl", "wget"] where argv.contains(tool) {
            #expect(packages.contains(tool), "HEALTHCHECK uses \(tool), which is not installed")
        }
    }

    /// Where the runtime stage puts the passgate binary (`COPY --from=build … /usr/local/bin/passgate`).
    static func installedBinary(_ runtime: Dockerfile.Stage) -> String {
        runtime.all("COPY").compactMap { copy -> String? in
            let words = copy.arguments.split(separator: " ").map(String.init)
            guard words.count >= 3, words.dropLast().last?.hasSuffix("/passgate") == true else { return nil }
            return words.last
        }.first ?? "(no COPY of passgate)"
    }

    /// `HEALTHCHECK [--options] CMD ["…"]` -> the argv.
    static func healthcheckCommand(_ instruction: Dockerfile.Instruction) -> [String]? {
        guard let range = instruction.arguments.range(of: "CMD ") else { return nil }
        return Dockerfile.execForm(String(instruction.arguments[range.upperBound...]))
    }
}
