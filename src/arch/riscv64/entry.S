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

    .section .text.altmem_stubs, "ax", @progbits
    .option push
    .option norvc
    .balign ISOLATION

.macro ALTMEM_STUB sym, slot, name, alias=
    .hidden \slot
    .globl \sym
    .type \sym, @function
    .balign 16
\sym:
.Lsite_\sym:
    auipc   t1, 0                       // the patched pair: +8 = the dispatcher
    jalr    zero, 8(t1)
1:  auipc   t1, %pcrel_hi(\slot)        // dispatcher: through the pointer
    ld      t1, %pcrel_lo(1b)(t1)
    jr      t1
    .size \sym, . - \sym
    .ifnb \alias
    .globl \alias
    .type \alias, @function
    .set \alias, \sym
    .size \alias, . - \sym
    .endif
    .pushsection altmem_patch_sites, "a", @progbits
    .balign 4
    .word .Lsite_\sym - .
    .word \slot - .
    .word .Lname_\sym - .
    .word .Lprobe - .
    .popsection
    .pushsection .rodata.altmem_names, "a", @progbits
.Lname_\sym:
    .asciz "\name"
    .popsection
.endm

#ifdef ALTMEM_PRELOAD
    ALTMEM_STUB altmem_memcpy,  altmem__memcpy_impl,  "memcpy",  memcpy
    ALTMEM_STUB altmem_memmove, altmem__memmove_impl, "memmove", memmove
    ALTMEM_STUB altmem_memset,  altmem__memset_impl,  "memset",  memset
#else
    ALTMEM_STUB altmem_memcpy,  altmem__memcpy_impl,  "memcpy"
    ALTMEM_STUB altmem_memmove, altmem__memmove_impl, "memmove"
    ALTMEM_STUB altmem_memset,  altmem__memset_impl,  "memset"
#endif

/* copy_user / clear_user: internal entries behind altmem_copy_user(), which
   first makes sure the fault handler is installed (src/uaccess/handler.c). */
    .hidden altmem__copy_user_entry
    .hidden altmem__clear_user_entry
    ALTMEM_STUB altmem__copy_user_entry,  altmem__copy_user_impl,  "copy_user"
    ALTMEM_STUB altmem__clear_user_entry, altmem__clear_user_impl, "clear_user"

    .balign ISOLATION
.Lprobe:
    .fill ISOLATION / 4, 4, 0x00100073  // ebreak: never executed
    .option pop

    .section .note.GNU-stack, "", @progbits
