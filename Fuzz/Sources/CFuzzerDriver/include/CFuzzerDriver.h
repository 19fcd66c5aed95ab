#ifndef PASSGATE_C_FUZZER_DRIVER_H
#define PASSGATE_C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// A fuzz target's per-input function, as libFuzzer calls LLVMFuzzerTestOneInput.
typedef int (*PassgateFuzzTestOneInput)(const uint8_t *data, size_t size);

/// Runs libFuzzer's command-line driver (LLVMFuzzerRunDriver, from libclang_rt.fuzzer) on the
/// process arguments; returns the exit code libFuzzer would.
int passgate_fuzz_run(int argc, char **argv, PassgateFuzzTestOneInput testOneInput);

#endif
