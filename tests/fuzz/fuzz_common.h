/*
 * Shared pieces of the libFuzzer harnesses (tests/fuzz/fuzz_*.c; docs/fuzzing.md).
 *
 *   struct fz_in     reads the input front to back; past its end every byte is 0,
 *                    so every input, even the empty one, is a complete case
 *   FZ_FAIL(...)     prints one line "fuzz_X: FINDING: ..." and abort()s: libFuzzer
 *                    reports a deadly signal and writes the input as crash-<sha1>
 *   fz_planted()     1 when FUZZ_PLANT=1 is in the environment: each harness then
 *                    adds one deliberately broken implementation (its negative
 *                    control; scripts/fuzz.sh --self-test)
 *   fz_pick(b, n)    an implementation index from an input byte: b % n, but 0xff is
 *                    always the last (n - 1): the public entry, or with FUZZ_PLANT=1
 *                    the broken one, whatever number of variants this CPU runs, so
 *                    that a committed input (tests/fuzz/regress/<target>/planted-*)
 *                    selects the planted bug on every machine
 *   fz_strict()      1 when FUZZ_STRICT=1: a known, reported library bug (each
 *                    harness lists its own) is a finding again instead of being
 *                    tolerated; the regression inputs named known-* run this way
 *   fz_set_policy()  sets the policy thresholds (non-temporal, memset non-temporal,
 *                    rep movsb, rep stosb, the short-distance rule) the way a user
 *                    does, through ALTMEM_TUNABLES (nt_threshold=, memset_nt_threshold=,
 *                    rep_movsb_threshold=, rep_stosb_threshold=,
 *                    rep_movsb_short_distance=): altmem__decide() on the detected
 *                    CPU after the caller's own ALTMEM_TUNABLES, then altmem__bind()
 *                    (exactly altmem_init()'s path, src/select.c), and checks the
 *                    variables the variants read (src/policy.h)
 */
#ifndef ALTMEM_FUZZ_COMMON_H
#define ALTMEM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "altmem.h"
#include "cpu.h"
#include "decide.h"
#include "policy.h"
#include "select.h"
#include "tunables.h"
#include "variant_table.h"

struct fz_in {
    const uint8_t *p;
    size_t n, at;
};

static inline uint8_t fz_u8(struct fz_in *in)
{
    return in->at < in->n ? in->p[in->at++] : (in->at++, 0);
}

static inline uint16_t fz_u16(struct fz_in *in)
{
    uint16_t v = fz_u8(in);
    return (uint16_t)(v | (uint16_t)fz_u8(in) << 8);
}

static inline uint32_t fz_u24(struct fz_in *in)
{
    uint32_t v = fz_u16(in);
    return v | (uint32_t)fz_u8(in) << 16;
}

static inline uint64_t fz_u64(struct fz_in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

#ifndef FZ_NAME
#define FZ_NAME "fuzz"
#endif

#define FZ_FAIL(...)                                  \
    do {                                              \
        fflush(stdout);                               \
        fprintf(stderr, FZ_NAME ": FINDING: ");       \
        fprintf(stderr, __VA_ARGS__);                 \
        fprintf(stderr, "\n");                        \
        abort();                                      \
    } while (0)

static inline int fz_planted(void)
{
    const char *e = getenv("FUZZ_PLANT");
    return e && !strcmp(e, "1");
}

static inline size_t fz_pick(uint8_t b, size_t n)
{
    return b == 0xff ? n - 1 : b % n;
}

static inline int fz_strict(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("FUZZ_STRICT");
        v = e && !strcmp(e, "1");
    }
    return v;
}

/* ---- Policy thresholds, set through ALTMEM_TUNABLES ------------------------------ */

#define FZ_NEVER SIZE_MAX
/* The largest byte count the BYTES settings accept (src/tunables.c: 256T); above
   it only "never". */
#define FZ_BYTES_MAX ((size_t)1 << 48)
#define FZ_KEEP (SIZE_MAX - 1)   /* leave the setting out: the per-CPU rules' value */

/* One value per ALTMEM_TUNABLES setting of the policy (src/policy.h). */
struct fz_policy {
    size_t nt;        /* nt_threshold=          (memcpy, memmove, copy_user; and memset unless below) */
    size_t memset_nt; /* memset_nt_threshold=   (memset, clear_user)                                   */
    size_t movsb;     /* rep_movsb_threshold=   (the _erms copies, every width)                        */
    size_t stosb;     /* rep_stosb_threshold=   (the _erms sets)                                       */
    size_t shortd;    /* rep_movsb_short_distance= (0..4095)                                           */
};

/* A threshold from a mode byte, relative to the size n of the case:
   % 8: 0 the rules' value, 1 zero, 2 n, 3 n + 1, 4 n - 1, 5 never,
   6 detail (0..limit), 7 n / 2.  Byte counts above 2^48 become never. */
static inline size_t fz_threshold(uint8_t mode, size_t n, uint32_t detail, size_t limit)
{
    size_t v;
    switch (mode % 8) {
    case 0: return FZ_KEEP;
    case 1: v = 0; break;
    case 2: v = n; break;
    case 3: v = n + 1; break;
    case 4: v = n ? n - 1 : 0; break;
    case 5: return FZ_NEVER;
    case 6: v = detail % (limit + 1); break;
    default: v = n / 2; break;
    }
    return v > FZ_BYTES_MAX ? FZ_NEVER : v;
}

/* The short-distance rule relative to a distance dist = (dst - src) mod 4096:
   % 8: 0 the rules' value, 1 zero, 2 dist, 3 dist - 1, 4 dist + 1, 5 4095,
   6 detail % 4096, 7 63. */
static inline size_t fz_short(uint8_t mode, size_t dist, uint32_t detail)
{
    size_t v;
    switch (mode % 8) {
    case 0: return FZ_KEEP;
    case 1: v = 0; break;
    case 2: v = dist; break;
    case 3: v = dist ? dist - 1 : 0; break;
    case 4: v = dist + 1; break;
    case 5: v = 4095; break;
    case 6: v = detail % 4096; break;
    default: v = 63; break;
    }
    return v > 4095 ? 4095 : v;
}

static void fz_policy_warn(const char *line, size_t len, void *ctx)
{
    FZ_FAIL("setting the policy through ALTMEM_TUNABLES \"%s\" produced a warning: %.*s", (const char *)ctx, (int)len,
            line);
}

static void fz_put(char *buf, size_t cap, const char *key, size_t v)
{
    size_t len = strlen(buf);
    if (v == FZ_KEEP)
        return;
    if (v == FZ_NEVER)
        snprintf(buf + len, cap - len, "%s%s=never", len ? ":" : "", key);
    else
        snprintf(buf + len, cap - len, "%s%s=%zu", len ? ":" : "", key, v);
}

static inline void fz_check_var(const char *what, size_t var, size_t want, const char *value)
{
    if (var != want)
        FZ_FAIL("after ALTMEM_TUNABLES \"%s\", %s = %zu, expected %zu", value, what, var, want);
}

/* The policy last installed (decide/bind run only when it changes). */
static struct fz_policy fz_policy_current = {0, 0, 0, 0, SIZE_MAX};

/* Installs the thresholds the way a user sets them: ALTMEM_TUNABLES, parsed by
   altmem__decide() on the detected CPU (after the caller's own ALTMEM_TUNABLES,
   if any), installed by altmem__bind() -- altmem_init()'s own path.  Then checks
   that the variables the variants read hold exactly the values asked for (or the
   rules' values for settings left out). */
static inline void fz_set_policy(const struct fz_policy *want)
{
    if (!memcmp(want, &fz_policy_current, sizeof *want))
        return;
    altmem_init();
    static char value[4096], ours[512];
    ours[0] = '\0';
    fz_put(ours, sizeof ours, "nt_threshold", want->nt);
    fz_put(ours, sizeof ours, "memset_nt_threshold", want->memset_nt);
    fz_put(ours, sizeof ours, "rep_movsb_threshold", want->movsb);
    fz_put(ours, sizeof ours, "rep_stosb_threshold", want->stosb);
    fz_put(ours, sizeof ours, "rep_movsb_short_distance", want->shortd);
    const char *env = getenv(ALTMEM_TUNABLES_ENV);
    if (env && strlen(env) > sizeof value - sizeof ours - 2)
        env = NULL;
    snprintf(value, sizeof value, "%s%s%s", env ? env : "", env && *env && *ours ? ":" : "", ours);
    static struct altmem__state st;
    /* The caller's own ALTMEM_TUNABLES may warn (it did at init too): only ours
       must be clean; the values are checked below in any case. */
    altmem__decide(&altmem__global.cpu, value, altmem__global.secure, &st, env ? NULL : fz_policy_warn, value);
    altmem__bind(&st);
    if (altmem__global.secure)
        return; /* ALTMEM_TUNABLES is ignored: the rules' values stand */
    const struct altmem__policy *rp = &st.rules_policy;
    size_t nt = want->nt == FZ_KEEP ? rp->nt_copy : want->nt;
    size_t mnt = want->memset_nt != FZ_KEEP ? want->memset_nt : want->nt != FZ_KEEP ? want->nt : rp->nt_set;
    fz_check_var("altmem__nt_threshold", altmem__nt_threshold, nt, value);
    fz_check_var("altmem__nt_threshold_16", altmem__nt_threshold_16,
                 want->nt == FZ_KEEP && rp->nt_copy16_never ? (size_t)-1 : nt, value);
    fz_check_var("altmem__copy_nt_four_pages", altmem__copy_nt_four_pages, (size_t)!rp->nt_copy_linear, value);
    fz_check_var("altmem__copy_split_loads_streaming", altmem__copy_split_loads_streaming,
                 (size_t)rp->split_loads_streaming, value);
    fz_check_var("altmem__memset_nt_threshold", altmem__memset_nt_threshold, mnt, value);
    for (int w = 0; w < 3; w++) {
        fz_check_var("altmem__rep_movsb_start[w]", altmem__rep_movsb_start[w],
                     want->movsb == FZ_KEEP ? rp->movsb[w] : want->movsb, value);
        size_t stosb = want->stosb == FZ_KEEP ? rp->stosb[w] : want->stosb;
        fz_check_var("altmem__rep_stosb_start[w]", altmem__rep_stosb_start[w], stosb, value);
        /* the inline memset loops' one compare: below both */
        fz_check_var("altmem__memset_loop_below[w]", altmem__memset_loop_below[w], stosb < mnt ? stosb : mnt, value);
    }
    /* the inline copy loops' one compare (16- and 32-byte): below the rep
       movsb start and the width's streaming start */
    size_t nt16 = want->nt == FZ_KEEP && rp->nt_copy16_never ? (size_t)-1 : nt;
    size_t shortd = want->shortd == FZ_KEEP ? rp->short_distance : want->shortd;
    size_t stop_min = want->movsb != FZ_KEEP ? (size_t)-1 : rp->movsb_stop16 < rp->movsb_stop16_apart ? rp->movsb_stop16 : rp->movsb_stop16_apart;
    stop_min = want->movsb != FZ_KEEP || stop_min < rp->movsb_stop16_near ? stop_min : rp->movsb_stop16_near;
    /* forward overlaps' own rep movsb start (amd-zen5), unless rep_movsb_threshold= */
    for (int w = 0; w < 3; w++)
        fz_check_var("altmem__rep_movsb_start_fwd_overlap[w]", altmem__rep_movsb_start_fwd_overlap[w],
                     want->movsb == FZ_KEEP ? rp->movsb_fwd_overlap[w] : 0, value);
    for (int w = 0; w < 2; w++) {
        size_t movsb = want->movsb == FZ_KEEP ? rp->movsb[w] : want->movsb, ntw = w ? nt : nt16;
        /* the 32-byte copies with src and dst apart mod 32: their own start where a rule sets one */
        size_t first = w && want->movsb == FZ_KEEP && rp->movsb32_apart < movsb ? rp->movsb32_apart : movsb;
        fz_check_var("altmem__copy_loop_below[w]", altmem__copy_loop_below[w], first < ntw ? first : ntw, value);
        if (w)
            fz_check_var("altmem__copy_loop_below_32_coaligned", altmem__copy_loop_below_32_coaligned,
                         movsb < ntw ? movsb : ntw, value);
        if (w)
            fz_check_var("altmem__rep_movsb_start_32_apart", altmem__rep_movsb_start_32_apart, first, value);
        /* rep movsb with no other test: below streaming and the 16-byte stops, no short distance */
        size_t movsb_fwd = want->movsb == FZ_KEEP ? rp->movsb_fwd_overlap[w] : 0;
        size_t direct = shortd || movsb_fwd ? 0 : w || stop_min == (size_t)-1 ? ntw : stop_min + 1 < ntw ? stop_min + 1 : ntw;
        fz_check_var("altmem__rep_movsb_direct_below[w]", altmem__rep_movsb_direct_below[w], direct, value);
    }
    /* the 64-byte copies' loops: below their rep movsb starts, streaming and the 32-byte hand-over */
    size_t m2 = want->movsb == FZ_KEEP ? rp->movsb[2] : want->movsb;
    size_t mco = want->movsb == FZ_KEEP ? rp->movsb_coaligned : want->movsb;
    size_t b512 = m2 < mco ? m2 : mco;
    b512 = b512 < nt ? b512 : nt;
    b512 = rp->split_loads_above != (size_t)-1 && rp->split_loads_above + 1 < b512 ? rp->split_loads_above + 1 : b512;
    fz_check_var("altmem__copy_loop_below_512", altmem__copy_loop_below_512, b512, value);
    /* forward overlaps stream from the rules' own start, unless nt_threshold= */
    size_t fwd = want->nt == FZ_KEEP && rp->nt_fwd_overlap > nt ? rp->nt_fwd_overlap : nt;
    fz_check_var("altmem__nt_threshold_fwd_overlap", altmem__nt_threshold_fwd_overlap, fwd, value);
    size_t coaligned = want->nt == FZ_KEEP && rp->nt_coaligned > nt ? rp->nt_coaligned : nt;
    fz_check_var("altmem__nt_threshold_coaligned", altmem__nt_threshold_coaligned, coaligned, value);
    fz_check_var("altmem__memset_lines_mask", altmem__memset_lines_mask, rp->memset_no_lines ? 0 : 63, value);
    fz_check_var("altmem__rep_movsb_start_coaligned", altmem__rep_movsb_start_coaligned,
                 want->movsb == FZ_KEEP ? rp->movsb_coaligned : want->movsb, value);
    fz_check_var("altmem__movsb_short_distance", altmem__movsb_short_distance,
                 want->shortd == FZ_KEEP ? rp->short_distance : want->shortd, value);
    fz_policy_current = *want;
}

/* For reports: the values in force. */
#define FZ_POLICY_FMT "nt=%zu memset_nt=%zu movsb=%zu/%zu/%zu (coaligned %zu) stosb=%zu/%zu/%zu short=%zu"
#define FZ_POLICY_ARGS                                                                                            \
    altmem__nt_threshold, altmem__memset_nt_threshold, altmem__rep_movsb_start[0], altmem__rep_movsb_start[1],   \
        altmem__rep_movsb_start[2], altmem__rep_movsb_start_coaligned, altmem__rep_stosb_start[0],                \
        altmem__rep_stosb_start[1], altmem__rep_stosb_start[2], altmem__movsb_short_distance

#endif
