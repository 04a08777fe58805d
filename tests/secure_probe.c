/*
 * Prints what the library decided in this process, for test_setuid.sh:
 *   secure=<0|1> memcpy=<variant> reason=<word> masked=<hex> forced=<hex> profile=<path>:<status>
 * Linked with the static library, so the decision is the real one made by the
 * constructor from this process's auxiliary vector and environment.
 */
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>

static const char *reason_word(enum altmem_bind_reason r)
{
    switch (r) {
    case ALTMEM_BOUND_DETECTED: return "detected";
    case ALTMEM_BOUND_OVERRIDDEN: return "overridden";
    case ALTMEM_BOUND_REFUSED: return "refused";
    case ALTMEM_BOUND_PROFILE: return "profile";
    default: return "default";
    }
}

int main(void)
{
    struct altmem_cpu_info cpu;
    struct altmem_binding_info b;
    altmem_cpu(&cpu);
    if (altmem_binding(ALTMEM_MEMCPY, &b) != 0)
        return 1;
    if (getenv("ALTMEM_PROBE_IDENTITY")) {
        char id[512];
        altmem_cpu_identity(id, sizeof id);
        printf("identity=%s\n", id);
        return 0;
    }
    struct altmem_profile_info p;
    altmem_profile(&p);
    static const char *const status[] = {"none", "applied", "ignored"};
    printf("secure=%d memcpy=%s reason=%s masked=%llx forced=%llx profile=%s:%s\n", cpu.secure, b.variant,
           reason_word(b.reason), (unsigned long long)cpu.masked, (unsigned long long)cpu.forced,
           p.path ? p.path : "(none)", status[p.status]);
    return 0;
}
