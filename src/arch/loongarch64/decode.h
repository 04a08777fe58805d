/* The pure decoder of loongarch64: the LoongArch feature rules (CPUCFG, AT_HWCAP).
   Compiled on every host (every src/arch/<arch>/decode.c), so tests/test_decode.c
   checks it anywhere; cpu.c gathers the raw values on loongarch64 itself. */
#ifndef ALTMEM_LOONGARCH64_DECODE_H
#define ALTMEM_LOONGARCH64_DECODE_H

#include <stddef.h>
#include <stdint.h>

uint64_t altmem__decode_loongarch(uint32_t cpucfg1, int have_hwcap, unsigned long hwcap,
                                  char *notes, size_t notes_len);

#endif
