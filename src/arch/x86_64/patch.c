/*
 * x86_64 patch sites: `jmp rel32`, reach +-2 GiB (encode.c).  No
 * instruction-cache maintenance: x86 keeps fetch coherent with stores, and
 * patching happens before any other thread of ours can run the site (the
 * mprotect system calls around the write serialise anyway).  The stubs that
 * own a room get the bound variant's code itself where copy.h can move it.
 */
#include "copy.h"
#include "patch/encode.h"
#include "patch/patch.h"

const size_t altmem__arch_site_len = 5;
const size_t altmem__arch_isolation = 4096;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    return altmem__branch_encode_x86_64(site, target, out);
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    return altmem__branch_decode_x86_64(site, code);
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    (void)start;
    (void)len;
}

/* The build's plan for this variant (copy_plans_tool.c), if the variant's
   bytes are the ones it was made from and every moved field still reaches;
   else NULL and, in *why, the reason (altmem info prints it). */
const struct altmem__copy_plan *altmem__arch_copy_plan(uintptr_t site, uintptr_t target, size_t room,
                                                       const char **why)
{
    const char *refused = "this build planned no copy of the variant (altmem-copy-plans: its code opens "
                          "with what a copy cannot keep, e.g. a stack frame)";
    int64_t delta = (int64_t)(target - site);
    if (delta <= -ALTMEM_X86_COPY_REACH || delta >= ALTMEM_X86_COPY_REACH) {
        refused = "the variant lies beyond the copy's +-1 GiB reach of the entry";
        goto out;
    }
    for (unsigned i = 0; i < altmem__copy_plans_count; i++) {
        const struct altmem__copy_plan_entry *e = &altmem__copy_plans[i];
        if ((uintptr_t)e->fn != target)
            continue;
        if (e->plan.len == 0)
            continue;
        if (e->room != room || e->plan.len + 5u > room) {
            refused = "the variant was planned for a room of another size than the entry's";
            continue;
        }
        const unsigned char *code = (const unsigned char *)target;
        for (unsigned f = 0; f < e->plan.nfix; f++) {
            int64_t v = (int32_t)altmem__get32(code + e->plan.fix[f]);
            if (v <= -ALTMEM_X86_COPY_REACH || v >= ALTMEM_X86_COPY_REACH) {
                refused = "a field the copy must move reaches beyond +-1 GiB";
                goto out;
            }
        }
        if (altmem__x86_copy_digest(code, &e->plan) == e->digest)
            return &e->plan;
        refused = "the variant's linked code differs from the code its copy was planned from "
                  "(digest: changed after compiling, e.g. by a linker's relaxation or a post-link optimiser)";
        break;
    }
out:
    if (why)
        *why = refused;
    return 0;
}

int altmem__arch_copy_apply(uintptr_t site, uintptr_t target, const struct altmem__copy_plan *plan, int check)
{
    return altmem__x86_copy_apply((volatile unsigned char *)site, site, (const unsigned char *)target, plan, check);
}
