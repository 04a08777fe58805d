/*
 * aarch64 entry points: each public routine is one patchable `b`.
 *
 * Assumptions: AAPCS64 (x16 is free at a call's entry: it is the veneer
 * register); the stubs own a 16 KiB-aligned, 16 KiB-padded block, followed by a
 * probe block of the same mapping (src/patch/patch.c).  Until patched, the `b`
 * reaches the next instruction, a jump through the routine's pointer: correct
 * before and without selection.
 */
#define ISOLATION 16384
#define PROBE_WORD 0xd4200000           /* brk #0 */

.macro ALTMEM_SITE slot
    b       1f                          // the patched instruction
1:  adrp    x16, \slot                  // dispatcher: through the pointer
    ldr     x16, [x16, :lo12:\slot]
    br      x16
.endm

    .section .text.altmem_stubs, "ax", %progbits
    .balign ISOLATION
#include "../stubs.inc"
