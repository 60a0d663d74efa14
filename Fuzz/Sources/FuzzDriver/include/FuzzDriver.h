#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM gives every executable
// target its own entry point, so the targets call the driver from there instead of using
// libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// Runs libFuzzer on `callback` with the process's arguments and returns its exit status.
int fuzz_driver_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif
