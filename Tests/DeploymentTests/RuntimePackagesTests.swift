import Foundation
import Testing

/// The runtime image installs exactly the Debian packages whose libraries the binary links.
///
/// There is no Docker engine here, so the check runs against the real `passgate` binary built for
/// these tests: a debug build that links the Swift runtime and Foundation dynamically from the
/// toolchain. The image's binary is `--static-swift-stdlib`, which links those same libraries
/// statically and adds only the system libraries named in the toolchain's
/// `static-stdlib-args.lnk`. So the libraries the image needs are: the debug binary's own libraries
/// outside the toolchain, plus those of `static-stdlib-args.lnk`; the closure `ldd` shows (the
/// toolchain libraries' needs included) is a superset of what the static binary loads. Both the
/// passgate binary and the backtracer the image copies are checked. (A release static build is
/// too slow to repeat on every run; its `readelf -d` was checked by hand: see deploy/README.md.)
@Suite("Runtime image packages")
struct RuntimePackagesTests {
    /// Packages the image needs that are not libraries of the binary, and why.
    static let nonLibraryPackages = ["ca-certificates": "the CA bundle (providers.cmcc.caFile) that verifies the carrier's TLS certificate"]

    struct Inspection {
        /// Libraries linked directly, outside the Swift toolchain, with the static link's additions.
        var direct: [SharedLibraries.Library] = []
        /// Everything the loader maps, outside the toolchain.
        var closure: [SharedLibraries.Library] = []
        var toolchain: String?
    }

    static func inspect() async throws -> Inspection {
        let binary = Binaries.passgate
        try #require(FileManager.default.isExecutableFile(atPath: binary), "passgate was not built at \(binary)")
        let loaded = try await SharedLibraries.ldd(binary)
        // The toolchain is wherever the loader found libswiftCore.so: <toolchain>/usr/lib/swift/linux/.
        let swiftCore = loaded.first { $0.soname == "libswiftCore.so" }
        let runtimeDirectory = swiftCore.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path + "/" }
        let toolchain = swiftCore.map { library -> String in
            (0..<4).reduce(URL(fileURLWithPath: library.path)) { url, _ in url.deletingLastPathComponent() }.path  // <toolchain>/usr
        }
        func outsideToolchain(_ library: SharedLibraries.Library) -> Bool { runtimeDirectory.map { !library.path.hasPrefix($0) } ?? true }

        var inspection = Inspection(toolchain: toolchain)
        let needed = Set(try await SharedLibraries.needed(binary))
        inspection.direct = loaded.filter { needed.contains($0.soname) && outsideToolchain($0) }
        inspection.closure = loaded.filter(outsideToolchain)
        if let toolchain {
            let added = try await SharedLibraries.staticStdlibLinkLibraries(toolchain: toolchain)
            inspection.direct += added
            inspection.closure += added
            // The image copies the backtracer from the same place in the build image's toolchain.
            let backtracer = "\(toolchain)/libexec/swift/linux/swift-backtrace-static"
            try #require(FileManager.default.fileExists(atPath: backtracer), "\(backtracer) is missing")
            let itsLibraries = try await SharedLibraries.ldd(backtracer)
            let itsNeeded = Set(try await SharedLibraries.needed(backtracer))
            inspection.direct += itsLibraries.filter { itsNeeded.contains($0.soname) }
            inspection.closure += itsLibraries
        }
        return inspection
    }

    @Test("the runtime stage installs exactly the packages owning the libraries the binary links, beyond the base image")
    func exactPackages() async throws {
        let inspection = try await Self.inspect()
        #expect(inspection.toolchain != nil, "expected a binary linking the toolchain's Swift runtime dynamically (a debug build)")
        let owners = try await DebianPackages.owners(of: inspection.direct.map(\.path))
        let packages = try await DebianPackages.load()
        let base = packages.baseImage
        let linked = Set(owners.values).subtracting(base)

        let runtime = try #require(try Dockerfile.shipped().stages.last)
        let installed = Dockerfile.aptPackages(in: runtime)
        #expect(installed.count == Set(installed).count, "a package is listed twice: \(installed)")
        let expected = linked.union(Self.nonLibraryPackages.keys)
        #expect(Set(installed) == expected, """
            runtime apt-get install: \(installed.sorted())
            packages owning the linked libraries (\(inspection.direct.map(\.soname).sorted())), less the base image, plus \
            \(Self.nonLibraryPackages.keys.sorted()): \(expected.sorted())
            """)
        #expect(!installed.contains { $0.hasSuffix("-dev") }, "runtime images take the runtime packages, never -dev ones")
        #expect(try Repository.configuration().map("providers").map("cmcc").string("caFile") == "/etc/ssl/certs/ca-certificates.crt")
    }

    @Test("every library ldd reports for the binary and its backtracer is in the image")
    func closureInImage() async throws {
        let inspection = try await Self.inspect()
        try #require(!inspection.closure.isEmpty)
        let owners = try await DebianPackages.owners(of: inspection.closure.map(\.path))
        let packages = try await DebianPackages.load()
        let runtime = try #require(try Dockerfile.shipped().stages.last)
        let image = packages.closure(of: packages.baseImage.union(Dockerfile.aptPackages(in: runtime)))
        for library in inspection.closure {
            let owner = try #require(owners[library.path])
            #expect(image.contains(owner), "\(library.soname) (\(library.path)) comes from \(owner), which the image would not have")
        }
    }
}
