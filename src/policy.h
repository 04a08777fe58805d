/* The policy variables the x86_64 variants read above their small size classes:
   set once at start-up by the per-CPU rules and ALTMEM_TUNABLES (src/policy.c,
   docs/tunables.md).  Index 0, 1, 2: the 16-, 32- and 64-byte variants.
   (size_t)-1 = never.  The one declaration of each. */
#ifndef ALTMEM_POLICY_H
#define ALTMEM_POLICY_H

#include <stddef.h>

/* memcpy, memmove, copy_user: non-temporal stores from this size (when source
   and destination do not overlap). */
extern size_t altmem__nt_threshold __attribute__((visibility("hidden")));
/* memset, clear_user: the same. */
extern size_t altmem__memset_nt_threshold __attribute__((visibility("hidden")));
/* The _erms variants: rep movsb / rep stosb from this size, up to the
   non-temporal threshold. */
extern size_t altmem__rep_movsb_start[3] __attribute__((visibility("hidden")));
extern size_t altmem__rep_movsb_start_coaligned __attribute__((visibility("hidden"))); /* 64 B, (dst ^ src) % 64 == 0 */
extern size_t altmem__rep_stosb_start[3] __attribute__((visibility("hidden")));
/* No rep movsb where (dst - src) mod 4096 is in 1..this (0: anywhere). */
extern size_t altmem__movsb_short_distance __attribute__((visibility("hidden")));

/* aarch64 DC ZVA / riscv64 cbo.zero: the block size in bytes the CPU zeroes
   per instruction (a power of two), or 0: do not use it. */
extern size_t altmem__zero_block __attribute__((visibility("hidden")));

#endif
