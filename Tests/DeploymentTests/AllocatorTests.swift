import Foundation
import PassgateTestSupport
import Testing

/// The executables allocate through jemalloc (Package.swift: `allocator`). Linking it is not
/// enough: its `malloc` must come before libc's in the binary's lookup order, or glibc would still
/// serve every allocation and the library would sit unused.
@Suite("Allocator")
struct AllocatorTests {
    @Test("passgate links libjemalloc ahead of libc")
    func linkedAheadOfLibc() async throws {
        let needed = try await SharedLibraries.needed(Binaries.passgate)
        let jemalloc = try #require(needed.firstIndex(of: "libjemalloc.so.2"), "DT_NEEDED: \(needed)")
        let libc = try #require(needed.firstIndex(of: "libc.so.6"), "DT_NEEDED: \(needed)")
        #expect(jemalloc < libc, "DT_NEEDED: \(needed)")
    }

    /// jemalloc prints its statistics at exit when `MALLOC_CONF` asks, and only if it served the
    /// process's allocations: a binary where glibc's malloc won would print nothing.
    @Test("jemalloc serves the running process's allocations")
    func servesAllocations() async throws {
        let result = try await Subprocess.run(
            Binaries.passgate, ["--help"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.contains("jemalloc statistics") || result.stdoutText.contains("jemalloc statistics"),
                "no jemalloc statistics at exit; stderr: \(result.stderrText.prefix(300))")
    }
}
