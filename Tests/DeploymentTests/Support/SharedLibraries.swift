import Foundation
import PassgateTestSupport

/// What the dynamic linker says about a binary on this machine.
enum SharedLibraries {
    struct Library: Hashable {
        /// As the binary names it, e.g. `libssl.so.3`.
        let soname: String
        /// Where the loader found it, e.g. `/lib/x86_64-linux-gnu/libssl.so.3`.
        let path: String
    }

    /// `ldd BINARY`: every library the loader maps for it, transitively, resolved to a file.
    /// Empty for a fully static binary; throws when a library is missing.
    static func ldd(_ binary: String) async throws -> [Library] {
        let result = try await Subprocess.run("ldd", [binary])
        if result.stdoutText.contains("not a dynamic executable") || result.stderrText.contains("not a dynamic executable") { return [] }
        guard result.status == 0 else { throw Failure("ldd \(binary) failed (\(result.status)): \(result.stderrText)") }
        var libraries: [Library] = []
        for line in result.stdoutText.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.contains("not found") { throw Failure("ldd \(binary): \(text): the binary cannot start on this machine") }
            if let arrow = text.range(of: " => ") {
                let soname = String(text[..<arrow.lowerBound])
                let path = String(text[arrow.upperBound...].prefix { $0 != " " })
                libraries.append(Library(soname: soname, path: path))
            } else if text.hasPrefix("/") {  // the dynamic loader itself
                let path = String(text.prefix { $0 != " " })
                libraries.append(Library(soname: URL(fileURLWithPath: path).lastPathComponent, path: path))
            }  // else linux-vdso.so.1: provided by the kernel, no file
        }
        return libraries
    }

    /// The binary's own `DT_NEEDED` entries (`readelf -d`): what it links directly, not transitively.
    static func needed(_ binary: String) async throws -> [String] {
        let result = try await Subprocess.run("readelf", ["-d", "-W", binary])
        guard result.status == 0 else {
            throw Failure("readelf -d \(binary) failed (\(result.status)): \(result.stderrText) (apt-get install binutils)")
        }
        return result.stdoutText.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    #if arch(x86_64)
    static let loaderCacheArchitecture = "x86-64"
    #else
    static let loaderCacheArchitecture = "AArch64"
    #endif

    /// `-lNAME` in the toolchain's `static-stdlib-args.lnk`: the system libraries that
    /// `--static-swift-stdlib` adds to the link, resolved through the loader cache (`ldconfig -p`).
    static func staticStdlibLinkLibraries(toolchain: String) async throws -> [Library] {
        let file = "\(toolchain)/lib/swift_static/linux/static-stdlib-args.lnk"
        let arguments = try String(contentsOfFile: file, encoding: .utf8)
        let names = arguments.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("-l") }.map { "lib\($0.dropFirst(2)).so" }
        let cache = try await Subprocess.run("ldconfig", ["-p"])
        guard cache.status == 0 else { throw Failure("ldconfig -p failed: \(cache.stderrText)") }
        var libraries: [Library] = []
        for name in names where !name.hasPrefix("libswift") && !["libdispatch.so", "libBlocksRuntime.so"].contains(name) {
            // `libstdc++.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libstdc++.so.6`: the runtime
            // name (.so.N), not the development symlink (.so), is what a linked binary needs.
            let candidates = cache.stdoutText.split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }.hasPrefix(name + ".")
            }
            let entry = candidates.first { $0.contains(loaderCacheArchitecture) } ?? candidates.first
            guard let entry, let arrow = entry.range(of: " => ") else {
                throw Failure("\(file) links -l\(name.dropFirst(3).dropLast(3)), which ldconfig -p does not know")
            }
            let soname = entry.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }
            libraries.append(Library(soname: String(soname), path: String(entry[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)))
        }
        return libraries
    }
}
