// swift-tools-version:6.0
import Foundation
import PackageDescription

// libFuzzer targets for Passgate's parsers (docs/fuzzing.md). Build through Fuzz/run: it passes
// -sanitize=fuzzer,address to every module, so the parent's libraries get coverage
// instrumentation too (unsafeFlags here would reach only this package's targets).

// A path dependency's identity is its folder's name, which depends on where the repository was
// cloned (passgate, wt-fuzz, ...), so it is read rather than written down.
let parentFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let parent = parentFolder.lastPathComponent

// Every Sources/Fuzz* folder but FuzzSupport is one fuzz target, so adding a target needs no edit
// here: copy a main.swift into a new folder and add its name to Fuzz/run.
let sources = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Sources").path
let fuzzTargets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [])
    .filter { $0.hasPrefix("Fuzz") && $0 != "FuzzSupport" }
    .sorted()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Every parser library a target may need; linking one it does not use costs nothing at run time.
// The providers come through PassgateProviders' one list, never by name: FuzzProviderReply fuzzes
// whatever the registry holds.
let parserLibraries: [Target.Dependency] = [
    .product(name: "PassgateCore", package: parent),
    .product(name: "PassgateAPI", package: parent),
]

// What the targets that go beyond the parsers need besides them: the API's HTTP/1.1 channel on an
// EmbeddedChannel, the reply-fuzz host with the registry, and the configuration reader.
let moreDependencies: [String: [Target.Dependency]] = [
    "FuzzHTTPRequest": [
        .product(name: "EventLoopExecution", package: parent),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
    ],
    "FuzzProviderReply": [.product(name: "PassgateFuzzing", package: parent), .product(name: "PassgateProviders", package: parent)],
    "FuzzConfiguration": [.product(name: "PassgateConfig", package: parent), .product(name: "PassgateProviders", package: parent)],
]

// The same packages as the parent's Package.swift, which Package.resolved pins (both files are
// committed; Fuzz/run builds with --force-resolved-versions).
let package = Package(
    name: "PassgateFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], swiftSettings: swiftSettings),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + parserLibraries + moreDependencies[name, default: []], swiftSettings: swiftSettings)
    }
)
