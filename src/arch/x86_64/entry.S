/*
 * x86_64 entry points: each public routine is one patchable `jmp rel32`.
 *
 * Assumptions: x86_64 SysV; the stubs own their 4 KiB page (x86_64 has no other
 * base page size), followed by a probe page of the same mapping that the engine
 * writes first to learn whether the system lets modified code run again
 * (src/patch/patch.c).  Until patched, the jmp reaches the next instruction,
 * which jumps through the routine's pointer: correct before and without
 * selection.
 */
#define ISOLATION 4096

    .section .text.altmem_stubs, "ax", @progbits
    .balign ISOLATION

/* ALTMEM_STUB symbol, slot, "name" [, alias]: the entry, its site record, its name. */
.macro ALTMEM_STUB sym, slot, name, alias=
    .hidden \slot
    .globl \sym
    .type \sym, @function
    .balign 16
\sym:
.Lsite_\sym:
    .byte 0xe9                  /* jmp rel32: the patched instruction            */
    .long 0                     /* +0 = the dispatcher, until selection patches it */
    jmp *\slot(%rip)            /* dispatcher: through the pointer               */
    .size \sym, . - \sym
    .ifnb \alias
    .globl \alias
    .type \alias, @function
    .set \alias, \sym
    .size \alias, . - \sym
    .endif
    .pushsection altmem_patch_sites, "a", @progbits
    .balign 4
    .long .Lsite_\sym - .
    .long \slot - .
    .long .Lname_\sym - .
    .long .Lprobe - .
    .popsection
    .pushsection .rodata.altmem_names, "a", @progbits
.Lname_\sym:
    .asciz "\name"
    .popsection
.endm

#ifdef ALTMEM_PRELOAD
/* libaltmem-preload.so: the C library's names are the same stubs. */
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

    .balign ISOLATION, 0xcc
.Lprobe:
    .fill ISOLATION, 1, 0xcc

    .section .note.GNU-stack, "", @progbits
