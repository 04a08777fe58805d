/* The policy the variants read (src/policy.h), set the way a user sets it: an
   ALTMEM_TUNABLES value through the parser and altmem__decide() on this CPU, then
   installed; NULL puts back what altmem_init() chose.  A value the parser refuses
   is the test's own mistake: one line on stderr, exit 2.  For the test programs
   (tests/testlib.c, tests/test_uaccess.c). */
#ifndef ALTMEM_TEST_POLICY_SET_H
#define ALTMEM_TEST_POLICY_SET_H

#include <stdio.h>
#include <stdlib.h>

#include "altmem.h"
#include "decide.h"
#include "policy.h"
#include "select.h"

static void test_policy_warn(const char *line, size_t len, void *ctx)
{
    fprintf(stderr, "%s: the test's own ALTMEM_TUNABLES value was refused: %.*s\n", (const char *)ctx, (int)len,
            line);
    exit(2);
}

static inline void test_policy_set(const char *value, const char *who)
{
    static struct altmem__state st;
    /* altmem_init(), and the cache sizes read (altmem_cpu() settles them): left
       unread, the first introspection call after this one (altmem_binding(),
       altmem_cpu()) would read them then and install the rules' policy over the
       one set here (test_uaccess --nt 0 printed its bindings after setting it,
       and its streaming parts ran with the threshold at 16 MiB on a Zen 5). */
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    if (!value) {
        altmem__policy_install(&altmem__global.policy);
        return;
    }
    altmem__decide(&altmem__global.cpu, value, 0, &st, test_policy_warn, (void *)who);
    altmem__policy_install(&st.policy);
}

#endif
