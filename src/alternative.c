/*
 * altmem_alternative_bind(): the engine behind ALTMEM_ALTERNATIVE for users'
 * own routines — the same selection rule (first choice whose features are
 * active, after ALTMEM_TUNABLES) and the same patcher as altmem's routines.
 */
#include "altmem_alternative.h"
#include "bind_mode.h"
#include "decide.h"
#include "select.h"
#include "lib/text.h"
#include "patch/patch.h"
#include "os/os.h"

void altmem_alternative_bind(void (**slot)(void), const struct altmem_choice *choices, size_t count,
                             const void *sites_begin, const void *sites_end,
                             struct altmem_alternative_info *info)
{
    if (count == 0)
        return;
    altmem_init();
    uint64_t active = altmem__global.active;
    size_t pick = count - 1;                 /* the fallback needs nothing */
    for (size_t i = 0; i < count; i++) {
        if (altmem__runnable(choices[i].requires, active)) {
            pick = i;
            break;
        }
    }
    __atomic_store_n(slot, choices[pick].fn, __ATOMIC_RELEASE);
    if (info)
        info->chosen = choices[pick].name;

    const struct altmem__site *b = sites_begin, *e = sites_end;
    char reason[120];
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    if (b && e && altmem__global.tun.bind != ALTMEM__BIND_POINTER)
        altmem__patch_sites(b, e, altmem__global.tun.debug, 0, reason, sizeof reason);
    if (info)
        info->bound_by = b && e && altmem__site_target(b, e, slot, NULL) ? "patched branch" : "pointer";
#else
    /* This build has no patcher (ALTMEM_BINDING=pointer/ifunc): the stub's
       dispatcher already jumps through the slot. */
    (void)b;
    (void)e;
    (void)reason;
    if (info)
        info->bound_by = "pointer";
#endif
    if (altmem__global.tun.verbose) {
        char line[200];
        struct altmem__text t = {line, sizeof line, 0};
        altmem__text_puts(&t, "altmem: alternative -> ");
        altmem__text_puts(&t, choices[pick].name);
        altmem__text_puts(&t, "\n");
        altmem__os_write_err(t.buf, t.len);
    }
}
