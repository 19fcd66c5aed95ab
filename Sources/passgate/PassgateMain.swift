import ArgumentParser
import PassgateCLI

/// The executable is only the entry point; everything lives in `PassgateCLI` so tests can drive it.
@main
extension PassgateCommand {}
