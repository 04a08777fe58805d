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

    .section .text.altmem_stubs, "ax", %progbits
    .balign ISOLATION

.macro ALTMEM_STUB sym, slot, name, alias=
    .hidden \slot
    .globl \sym
    .type \sym, %function
    .balign 16
\sym:
.Lsite_\sym:
    b       1f                          // the patched instruction
1:  adrp    x16, \slot                  // dispatcher: through the pointer
    ldr     x16, [x16, :lo12:\slot]
    br      x16
    .size \sym, . - \sym
    .ifnb \alias
    .globl \alias
    .type \alias, %function
    .set \alias, \sym
    .size \alias, . - \sym
    .endif
    .pushsection altmem_patch_sites, "a", %progbits
    .balign 4
    .word .Lsite_\sym - .
    .word \slot - .
    .word .Lname_\sym - .
    .word .Lprobe - .
    .popsection
    .pushsection .rodata.altmem_names, "a", %progbits
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
    .fill ISOLATION / 4, 4, 0xd4200000  // brk #0: never executed

    .section .note.GNU-stack, "", %progbits
