/*
 * Copying a variant's code into its entry stub (x86_64): the stub's room then
 * holds the variant's first size classes themselves, so that a call of the
 * public entry runs what a direct call of the variant runs, without the stub's
 * jump (docs/alternatives.md, "Copied entries").  Pure functions of the bytes
 * they are given, like the kernel's apply_alternatives() relocating a
 * replacement: compiled on every host for tests/test_copy.c.
 */
#ifndef ALTMEM_X86_COPY_H
#define ALTMEM_X86_COPY_H

#include <stddef.h>
#include <stdint.h>

/* The most room a stub may offer (the size of the planner's map of
   instruction starts). */
#define ALTMEM_X86_COPY_ROOM_MAX 2048

/* How much of the code at src can run from address `at`, in a room of `room`
   bytes: the longest prefix that decodes, never writes %rsp (the stub's unwind
   entry says the stack is the caller's), keeps every 8-bit branch inside
   itself, and ends where a jmp back to src + len fits (*tail = 1) or where no
   path goes on (*tail = 0).  Reads only bytes some path from src executes, and
   the padding between them.  Returns the length, 0 when nothing can be copied. */
size_t altmem__x86_copy_plan(uintptr_t at, const unsigned char *src, size_t room, int *tail);

/* Writes the copy planned above to out, to run at `at`: the bytes of src with
   every RIP-relative operand, and every 32-bit branch that leaves the copy,
   pointed where the original's pointed, then the jmp back when tail.  With
   check, compares instead of writing.  Returns 1 (written, or the same), 0. */
int altmem__x86_copy_apply(volatile unsigned char *out, uintptr_t at, const unsigned char *src, size_t len,
                           int tail, int check);

#endif
