/*
 * Prints what the library decided in this process, for test_setuid.sh:
 *   secure=<0|1> memcpy=<variant> reason=<word> masked=<hex> forced=<hex>
 * Linked with the static library, so the decision is the real one made by the
 * constructor from this process's auxiliary vector and environment.
 */
#include <altmem.h>
#include <stdio.h>

static const char *reason_word(enum altmem_bind_reason r)
{
    switch (r) {
    case ALTMEM_BOUND_DETECTED: return "detected";
    case ALTMEM_BOUND_OVERRIDDEN: return "overridden";
    case ALTMEM_BOUND_REFUSED: return "refused";
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
    printf("secure=%d memcpy=%s reason=%s masked=%llx forced=%llx\n", cpu.secure, b.variant,
           reason_word(b.reason), (unsigned long long)cpu.masked, (unsigned long long)cpu.forced);
    return 0;
}
