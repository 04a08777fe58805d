/*
 * Copying a variant's code into its entry stub (x86_64): the stub's room then
 * holds the variant's first size classes themselves, so that a call of the
 * public entry runs what a direct call of the variant runs, without the stub's
 * jump (docs/alternatives.md, "Copied entries").  Pure functions of the bytes
 * they are given, like the kernel's apply_alternatives() relocating a
 * replacement.  The planner (copy_plan.c) runs at build time, in
 * copy_plans_tool.c, and in tests/test_x86_insn.c on any host; the library
 * carries only the digest and the copier (copy.c).
 */
#ifndef ALTMEM_X86_COPY_H
#define ALTMEM_X86_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "patch/copy_plan.h"

/* The most room a stub may offer (the size of the planner's map of
   instruction starts). */
#define ALTMEM_X86_COPY_ROOM_MAX 2048
/* A displacement moved by the distance between the copy and the original
   stays within +-2 GiB when both are below this (the planner checks the
   displacement, the engine the distance and the linked fields). */
#define ALTMEM_X86_COPY_REACH ((int64_t)1 << 30)

/* How much of the code at src can run from address `at`, in a room of `room`
   bytes: the longest prefix that decodes, never writes %rsp (the stub's unwind
   entry says the stack is the caller's), keeps every 8-bit branch inside
   itself, needs at most ALTMEM_COPY_FIXUPS moved fields, and ends where a jmp
   back to src + len fits (tail) or where no path goes on.  Reads only the
   `avail` bytes at src (the function's size; SIZE_MAX: unknown, then only
   bytes some path from src executes, and the padding between them).  The
   sorted offsets in `relocated` are fields whose value the link decides (an
   object file's relocations): each moves with the copy, its target unknown.
   Returns plan->len, 0 when nothing can be copied. */
size_t altmem__x86_copy_plan(uintptr_t at, const unsigned char *src, size_t avail, size_t room,
                             const uint16_t *relocated, size_t nrelocated, struct altmem__copy_plan *plan);

/* A 64-bit digest of the plan's bytes of src that a copy keeps as they are
   (all but the moved fields): what the build saw is what the engine copies. */
uint64_t altmem__x86_copy_digest(const unsigned char *src, const struct altmem__copy_plan *plan);

/* Writes the planned copy to out, to run at `at`: the bytes of src with every
   field of the plan moved by src - at, then the jmp back when the plan says.
   No decoding, no call.  With check, compares instead of writing.  Returns 1
   (written, or the same), 0. */
int altmem__x86_copy_apply(volatile unsigned char *out, uintptr_t at, const unsigned char *src,
                           const struct altmem__copy_plan *plan, int check);

#endif
