/*
 * riscv64 entry points: each public routine is one patchable
 * `auipc t1, hi20; jalr zero, lo12(t1)` pair (a direct jump with +-2 GiB reach).
 *
 * Assumptions: RV64 psABI (t1 is free at a call's entry: the PLT uses it); no
 * compressed instructions in the stubs, so the site is exactly 8 bytes; the stubs
 * own a 4 KiB-aligned, padded block followed by a probe block of the same mapping
 * (src/patch/patch.c).  Until patched, the pair reaches the next instruction, a
 * jump through the routine's pointer: correct before and without selection.
 */
#define ISOLATION 4096
#define PROBE_WORD 0x00100073           /* ebreak */

.macro ALTMEM_SITE slot
    auipc   t1, 0                       // the patched pair: +8 = the dispatcher
    jalr    zero, 8(t1)
1:  auipc   t1, %pcrel_hi(\slot)        // dispatcher: through the pointer
    ld      t1, %pcrel_lo(1b)(t1)
    jr      t1
.endm

    .section .text.altmem_stubs, "ax", %progbits
    .option push
    .option norvc
    .balign ISOLATION
#include "../stubs.inc"
    .option pop
