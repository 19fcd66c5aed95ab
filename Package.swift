// swift-tools-version:6.0
import PackageDescription

let commonSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // Release builds specialize generics across this package's modules (the request path crosses
    // several: core, provider, server, transport, worker threads), instead of instantiating their
    // metadata at run time on every request. bench/decisions/0004-cross-module-optimization.md has the measurement.
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

// A nonisolated async function runs on its caller's executor instead of hopping to the generic
// one: with a task executor preference every such hop is a runtime call that looks the preference
// up under the task's status lock. bench/decisions/0015-nonisolated-nonsending.md has the measurement.
let swiftSettings = commonSwiftSettings + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

// The entry points keep Swift 6's default for nonisolated async functions: Swift 6.3.1 crashes
// generating the async `main` that `@main` on an `AsyncParsableCommand` produces with it on.
let entryPointSwiftSettings = commonSwiftSettings

// The executables allocate through jemalloc (Debian's libjemalloc2) on Linux instead of glibc's
// malloc: a request allocates ~170 times, on one thread and freed on another (event loop, Swift
// pool, curl thread), which glibc's per-thread caches serve poorly. Linked ahead of libc, so its
// malloc serves every allocation of the process. bench/decisions/0003-jemalloc.md has the measurement.
let allocator: [LinkerSetting] = [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]

let package = Package(
    name: "passgate",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "passgate", targets: ["passgate"]),
        .library(name: "OpenSSLCrypto", targets: ["OpenSSLCrypto"]),
        .library(name: "CurlTransport", targets: ["CurlTransport"]),
        .library(name: "PassgateCore", targets: ["PassgateCore"]),
        .library(name: "ProviderCMCC", targets: ["ProviderCMCC"]),
        .library(name: "ProviderJVerification", targets: ["ProviderJVerification"]),
        .library(name: "ProviderShanyan", targets: ["ProviderShanyan"]),
        .library(name: "ProviderAliyun", targets: ["ProviderAliyun"]),
        .library(name: "ProviderGeetest", targets: ["ProviderGeetest"]),
        .library(name: "ProviderGetui", targets: ["ProviderGetui"]),
        .library(name: "ProviderYidun", targets: ["ProviderYidun"]),
        .library(name: "ProviderTencent", targets: ["ProviderTencent"]),
        .library(name: "ProviderMobTech", targets: ["ProviderMobTech"]),
        .library(name: "ProviderUmeng", targets: ["ProviderUmeng"]),
        .library(name: "PassgateAPI", targets: ["PassgateAPI"]),
        // For the fuzz targets (Fuzz/Package.swift): the API's HTTP/1.1 channel and the configuration reader.
        .library(name: "EventLoopExecution", targets: ["EventLoopExecution"]),
        .library(name: "PassgateConfig", targets: ["PassgateConfig"]),
        .library(name: "PassgateProviders", targets: ["PassgateProviders"]),
        .library(name: "PassgateFuzzing", targets: ["PassgateFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Already resolved through Hummingbird: the tracing API, at no extra build cost
        // (bench/decisions/0022-tracing-exporter.md).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
    ],
    targets: [
        // Layers as in docs/architecture.md ("Targets"): a target depends on lower layers, and on its own only where that table says so.
        // MARK: Layer 0, system: C libraries through pkg-config
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),

        // MARK: Layer 1, base: the blocking-worker primitive, Swift over OpenSSL
        .target(
            name: "DedicatedThreads",
            dependencies: [
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OpenSSLCrypto",
            dependencies: ["COpenSSL"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: the outbound HTTPS client
        .target(
            name: "CurlTransport",
            dependencies: [
                "CCurl",
                "DedicatedThreads",
                "PassgateCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 2, core
        // What every provider and the server share: JSON, time, the error model, redaction, the
        // call record and the provider protocol.
        .target(
            name: "PassgateCore",
            dependencies: [
                "OpenSSLCrypto",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: one target per provider
        // Providers: one target each, registered in PassgateProviders' one list.
        .target(
            name: "ProviderCMCC",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderJVerification",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderShanyan",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderAliyun",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderGeetest",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderGetui",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderYidun",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderTencent",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderMobTech",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ProviderUmeng",
            dependencies: ["PassgateCore", "OpenSSLCrypto"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 4, assembly: the provider registry
        // The providers this build ships, one line each: the list the composition root (`passgate`)
        // hands to the configuration and the sandbox; tests and the fuzz package use the same list.
        .target(
            name: "PassgateProviders",
            dependencies: ["PassgateCore", "ProviderCMCC", "ProviderJVerification", "ProviderShanyan", "ProviderAliyun", "ProviderGeetest", "ProviderGetui", "ProviderYidun", "ProviderTencent", "ProviderMobTech", "ProviderUmeng"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: the reply-fuzz host
        // The reply-fuzz host: any registered provider's replies fuzzed through its own prepared
        // calls (Fuzz/Sources/FuzzProviderReply runs it; the unit tests drive it without Fuzz/).
        .target(
            name: "PassgateFuzzing",
            dependencies: ["PassgateCore"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: the REST request bodies
        // The REST API's request bodies: decoding and validation, without an HTTP server, so the
        // fuzz targets (Fuzz/) build it without Hummingbird.
        .target(
            name: "PassgateAPI",
            dependencies: ["PassgateCore"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 4, assembly: the configuration, read through the provider registry
        .target(
            name: "PassgateConfig",
            dependencies: [
                "OpenSSLCrypto",
                "PassgateCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 5, hosts: the providers' emulator
        .target(
            name: "CarrierSandbox",
            dependencies: [
                "EventLoopExecution",
                "OpenSSLCrypto",
                "PassgateCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: the audit log, the replay store, the listeners' channel and executors
        .target(
            name: "PassgateAudit",
            dependencies: [
                "PassgateCore",
                "DedicatedThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassgateState",
            dependencies: [
                "OpenSSLCrypto",
                "PassgateCore",
                "CHiredis",
                "DedicatedThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Requests run on the event loop that read them while a listener is quiet, on Swift's pool under load.
        .target(
            name: "EventLoopExecution",
            dependencies: [
                "PassgateCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 3, parts: the operator console's pages
        // The console's pure parts (HTML writer, layout, pages, session state machine), without
        // an HTTP server; PassgateServer serves them on the admin listener.
        .target(
            name: "PassgateConsole",
            dependencies: ["PassgateCore"],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 5, hosts: the HTTP service
        .target(
            name: "PassgateServer",
            dependencies: [
                "EventLoopExecution",
                "OpenSSLCrypto",
                "PassgateCore",
                "PassgateAPI",
                "CurlTransport",
                "PassgateConfig",
                "PassgateState",
                "PassgateAudit",
                "PassgateConsole",
                "DedicatedThreads",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Layer 6, executables: the command line, passgate, the bench's bare proxy
        .target(
            name: "PassgateCLI",
            dependencies: [
                "PassgateProviders",
                "OpenSSLCrypto",
                "PassgateCore",
                "CurlTransport",
                "PassgateConfig",
                "CarrierSandbox",
                "PassgateServer",
                "PassgateAudit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "passgate",
            dependencies: [
                "PassgateCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: entryPointSwiftSettings,
            linkerSettings: allocator
        ),
        // The benchmark's bare-proxy reference (bench/run); deploy/Dockerfile builds only `passgate`.
        .executableTarget(
            name: "passgate-bench-proxy",
            dependencies: [
                "CurlTransport",
                "EventLoopExecution",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: entryPointSwiftSettings,
            linkerSettings: allocator
        ),

        // MARK: Tests: the test support targets and the test targets
        .testTarget(
            name: "EventLoopExecutionTests",
            dependencies: [
                "EventLoopExecution",
                "PassgateTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OpenSSLCryptoTests",
            dependencies: ["OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateCoreTests",
            dependencies: ["PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderCMCCTests",
            dependencies: ["ProviderCMCC", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderJVerificationTests",
            dependencies: ["ProviderJVerification", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderShanyanTests",
            dependencies: ["ProviderShanyan", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderAliyunTests",
            dependencies: ["ProviderAliyun", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderGeetestTests",
            dependencies: ["ProviderGeetest", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderGetuiTests",
            dependencies: ["ProviderGetui", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderYidunTests",
            dependencies: ["ProviderYidun", "PassgateCore", "PassgateConfig", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderTencentTests",
            dependencies: ["ProviderTencent", "PassgateCore", "PassgateConfig", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderMobTechTests",
            dependencies: ["ProviderMobTech", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderUmengTests",
            dependencies: ["ProviderUmeng", "PassgateCore", "OpenSSLCrypto", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DedicatedThreadsTests",
            dependencies: [
                "DedicatedThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CurlTransportTests",
            dependencies: [
                "CurlTransport",
                "PassgateTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateConfigTests",
            dependencies: [
                "ProviderCMCC", "ProviderJVerification", "ProviderShanyan", "ProviderAliyun", "ProviderGeetest", "ProviderYidun", "ProviderTencent", "ProviderMobTech", "ProviderUmeng", "PassgateConfig", "OpenSSLCrypto", "PassgateCore", "PassgateTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CarrierSandboxTests",
            dependencies: ["PassgateTestSupport", "PassgateProviders", "ProviderCMCC", "ProviderJVerification", "ProviderShanyan", "ProviderAliyun", "ProviderGeetest", "ProviderGetui", "ProviderYidun", "ProviderTencent", "ProviderMobTech", "ProviderUmeng", "CarrierSandbox", "PassgateCore", "OpenSSLCrypto", "CurlTransport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassgateTestSupport",
            dependencies: ["PassgateCore", "OpenSSLCrypto", "PassgateConfig", "PassgateProviders"],
            path: "Tests/PassgateTestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassgateLiveTestSupport",
            dependencies: ["PassgateTestSupport", "PassgateCLI", "PassgateServer", "PassgateConfig", "PassgateCore", "CurlTransport"],
            path: "Tests/PassgateLiveTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateStateTests",
            dependencies: [
                "PassgateState", "OpenSSLCrypto", "PassgateTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateServerTests",
            dependencies: [
                "PassgateCLI", "PassgateFuzzing", "PassgateProviders",
                "ProviderCMCC",
                "ProviderJVerification",
                "ProviderShanyan",
                "ProviderAliyun",
                "ProviderGeetest",
                "ProviderGetui",
                "ProviderYidun",
                "ProviderTencent",
                "ProviderMobTech",
                "ProviderUmeng",
                "PassgateServer", "PassgateConfig", "PassgateState", "CarrierSandbox", "PassgateCore", "CurlTransport", "OpenSSLCrypto",
                "PassgateTestSupport", "PassgateLiveTestSupport", "PassgateConsole",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateConsoleTests",
            dependencies: ["PassgateConsole", "PassgateCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateAuditTests",
            dependencies: [
                "PassgateTestSupport",
                "ProviderCMCC",
                "PassgateAudit",
                "PassgateCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeploymentTests",
            dependencies: [
                "PassgateCLI",
                "PassgateConfig", "PassgateServer", "OpenSSLCrypto", "PassgateTestSupport", "PassgateLiveTestSupport", "passgate", "PassgateCore", "CurlTransport",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassgateCLITests",
            dependencies: [
                "ProviderCMCC", "PassgateProviders",
                "PassgateCLI", "passgate", "passgate-bench-proxy", "OpenSSLCrypto", "PassgateCore", "CurlTransport", "CarrierSandbox",
                "PassgateTestSupport", "PassgateAudit", "PassgateConfig", "PassgateServer",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
