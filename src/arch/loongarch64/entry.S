/*
 * loongarch64 entry points: each public routine is one patchable `b` — the
 * mechanism Linux uses (arch/loongarch/lib: `b __memcpy_generic` rewritten
 * to `b __memcpy_fast` when CPUCFG reports UAL).
 *
 * Assumptions: LP64D ABI ($t8 is a temporary, free at a call's entry); the stubs
 * own a 16 KiB-aligned (Linux's default LoongArch page), padded block followed by
 * a probe block of the same mapping (src/patch/patch.c).  Until patched, the `b`
 * reaches the next instruction, a jump through the routine's pointer.
 */
#define ISOLATION 16384
#define PROBE_WORD 0x002a0000           /* break 0 */

.macro ALTMEM_SITE slot
    b       1f                          # the patched instruction
1:  pcalau12i $t8, %pc_hi20(\slot)      # dispatcher: through the pointer
    ld.d    $t8, $t8, %pc_lo12(\slot)
    jr      $t8
.endm

    .section .text.altmem_stubs, "ax", %progbits
    .balign ISOLATION
#include "../stubs.inc"
