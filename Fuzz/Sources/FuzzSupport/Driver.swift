import CFuzzerDriver

/// The entry point of a fuzz target executable. SwiftPM links every executable on Linux with
/// `--defsym main=<Target>_main`, so libFuzzer's own `main` is never used and `-parse-as-library`
/// leaves `<Target>_main` undefined. Each target therefore defines it as
/// `@_cdecl("<Target>_main")` and calls this, which hands over to libFuzzer's driver.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    passgate_fuzz_run(argc, argv, testOneInput)
}
