/*
 * A plan for copying a variant's code into a stub's room (the engine's
 * copied entries, src/patch/patch.c; made by the architecture, x86_64:
 * src/arch/x86_64/copy.h): how many bytes, whether a branch back to the rest
 * of the original follows them, and where the PC-relative 32-bit fields lie
 * that must keep reaching what the original's reached.
 */
#ifndef ALTMEM_COPY_PLAN_H
#define ALTMEM_COPY_PLAN_H

#include <stdint.h>

#define ALTMEM_COPY_FIXUPS 48

struct altmem__copy_plan {
    uint16_t len;                          /* bytes copied (0: no copy)           */
    uint8_t tail;                          /* a jmp back to src + len follows     */
    uint8_t nfix;
    uint16_t fix[ALTMEM_COPY_FIXUPS];      /* offsets of the fields to move       */
};

/* The plans this build made (x86_64: src/arch/x86_64/copy_plans_tool.c writes
   them from the variant objects into copy_plans.c), one per variant. */
struct altmem__copy_plan_entry {
    const void *fn;                        /* the variant                         */
    uint32_t room;                         /* the room it was planned for         */
    uint64_t digest;                       /* its bytes as planned (copy.h)       */
    struct altmem__copy_plan plan;
};
extern const struct altmem__copy_plan_entry altmem__copy_plans[] __attribute__((visibility("hidden")));
extern const unsigned altmem__copy_plans_count __attribute__((visibility("hidden")));

#endif
