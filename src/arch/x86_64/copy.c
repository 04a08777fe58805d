/*
 * Copying a variant into its entry stub (copy.h): what start-up runs, with
 * the build's plan (copy_plan.c made it).
 *
 * Assumptions: calls none (runs while the stub page is not executable, and
 * memcpy is what it copies).
 */
#include "copy.h"
#include "patch/encode.h"

static int64_t field32(const unsigned char *p)
{
    return (int32_t)altmem__get32(p);
}

/* An unaligned 64-bit load, one instruction on x86_64 (not a call). */
typedef uint64_t word_unaligned __attribute__((aligned(1), may_alias));

static uint64_t load64(const unsigned char *p)
{
    return *(const word_unaligned *)p;
}

/* The bytes of word [at, at + 8) that a moved field [fix, fix + 4) covers. */
static uint64_t field_mask(size_t at, size_t fix)
{
    uint64_t m = 0;
    for (size_t b = fix; b < fix + 4; b++)
        if (b >= at && b < at + 8)
            m |= (uint64_t)0xff << (8 * (b - at));
    return m;
}

uint64_t altmem__x86_copy_digest(const unsigned char *src, const struct altmem__copy_plan *plan)
{
    /* Eight bytes at a time, each moved field's bytes counted as zero; the
       loop's common path is a load, a compare, an xor and a multiply. */
    size_t len = plan->len, words = len / 8;
    uint64_t h = 0xcbf29ce484222325u ^ len ^ (uint64_t)plan->tail << 16;
    unsigned f = 0;
    size_t next = plan->nfix ? plan->fix[0] : (size_t)-1;
    for (size_t k = 0; k <= words; k++) {
        size_t at = 8 * k;
        uint64_t w = 0;
        if (k < words)
            w = load64(src + at);
        else
            for (size_t b = 0; at + b < len; b++)
                w |= (uint64_t)src[at + b] << (8 * b);
        if (next < at + 8) {
            for (unsigned g = f; g < plan->nfix && plan->fix[g] < at + 8; g++)
                w &= ~field_mask(at, plan->fix[g]);
            while (f < plan->nfix && plan->fix[f] + 4u <= at + 8)
                f++;
            next = f < plan->nfix ? plan->fix[f] : (size_t)-1;
        }
        h = (h ^ w) * 0x100000001b3u;
    }
    return h ^ h >> 29;
}

static int put32(volatile unsigned char *out, size_t i, int64_t v, int check)
{
    int ok = 1;
    for (int k = 0; k < 4; k++) {
        unsigned char b = (unsigned char)((uint64_t)v >> (8 * k));
        if (check)
            ok &= out[i + (size_t)k] == b;
        else
            out[i + (size_t)k] = b;
    }
    return ok;
}

int altmem__x86_copy_apply(volatile unsigned char *out, uintptr_t at, const unsigned char *src,
                           const struct altmem__copy_plan *plan, int check)
{
    int64_t delta = (int64_t)((uintptr_t)src - at);
    size_t len = plan->len, i = 0;
    int ok = 1;
    if (check) {
        /* Byte by byte, each moved field as the value it must hold. */
        for (unsigned f = 0; i < len;) {
            if (f < plan->nfix && i == plan->fix[f]) {
                ok &= put32(out, i, field32(src + i) + delta, 1);
                i += 4;
                f++;
            } else {
                ok &= out[i] == src[i];
                i++;
            }
        }
    } else {
        /* Eight bytes at a time through volatile words (never a call to
           memcpy), then the moved fields over them. */
        for (; i + 8 <= len; i += 8)
            *(volatile uint64_t *)(out + i) = load64(src + i);
        for (; i < len; i++)
            out[i] = src[i];
        for (unsigned f = 0; f < plan->nfix; f++)
            put32(out, plan->fix[f], field32(src + plan->fix[f]) + delta, 0);
    }
    if (plan->tail) {
        if (check)
            ok &= out[len] == 0xe9;
        else
            out[len] = 0xe9;
        ok &= put32(out, len + 1, delta - 5, check);   /* src + len - (at + len + 5) */
    }
    return ok;
}
