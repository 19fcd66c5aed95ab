#include "CFuzzerDriver.h"

// In libclang_rt.fuzzer since LLVM 11, linked in by -sanitize=fuzzer. Called from C because Swift
// cannot declare an external C function without an experimental feature.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int passgate_fuzz_run(int argc, char **argv, PassgateFuzzTestOneInput testOneInput) {
    return LLVMFuzzerRunDriver(&argc, &argv, testOneInput);
}
