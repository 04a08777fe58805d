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

/* The rooms the engine may copy a variant into (copy.h): the three plain
   routines fill the stub page but 64 bytes, each starting 64-byte aligned as
   the variants do (-falign-functions=64); the copy routines' variants carry
   exception-table entries for their own addresses and keep the branch.  1600
   holds every x86_64 memcpy/memmove entry's classes up to 256 bytes and more;
   832 every memset entry whole (nm -S: 738 bytes at most). */
#define ALTMEM_STUB_ROOM_memcpy 1600
#define ALTMEM_STUB_ROOM_memmove 1600
#define ALTMEM_STUB_ROOM_memset 832
#define ALTMEM_STUB_ROOM_copy_user 0
#define ALTMEM_STUB_ROOM_clear_user 0
#define STUB_CFI 1

.macro ALTMEM_SITE slot
    .byte 0xe9                  /* jmp rel32: the patched instruction            */
    .long 0                     /* +0 = the dispatcher, until selection patches it */
    jmp *\slot(%rip)            /* dispatcher: through the pointer               */
.endm

    .section .text.altmem_stubs, "ax", %progbits
    .balign ISOLATION
#include "../stubs.inc"
