/*
 * x86_64 entry points: each public routine is one patchable `jmp rel32`.
 *
 * Assumptions: x86_64 SysV; the stubs own their 4 KiB page (x86_64 has no other
 * base page size), followed by a probe page of the same mapping that the engine
 * writes first to learn whether the system lets modified code run again
 * (src/patch/patch.c).  Until patched, the jmp reaches the next instruction,
 * which jumps through the routine's pointer: correct before and without
 * selection.  The plain routines' stubs own a room after them, into which the
 * engine may copy the bound variant's first size classes (copy.h).
 */
#define ISOLATION 4096
#ifndef STUB_ALIGN
#define STUB_ALIGN 16
#endif
#define PROBE_WORD 0xcccccccc           /* int3 x 4 */

#include "stub_rooms.h"                /* each plain routine's room (copy.h) */
#define STUB_CFI 1

.macro ALTMEM_SITE slot
    .byte 0xe9                  /* jmp rel32: the patched instruction            */
    .long 0                     /* +0 = the dispatcher, until selection patches it */
    jmp *\slot(%rip)            /* dispatcher: through the pointer               */
.endm

    .section .text.altmem_stubs, "ax", %progbits
    .balign ISOLATION
#include "../stubs.inc"
