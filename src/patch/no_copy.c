/*
 * The copy hooks (patch.h) of an architecture whose stubs own no room
 * (src/arch/stubs.inc): every entry keeps its patched branch.  Built in place
 * of the architecture's copy.c where it has none (src/CMakeLists.txt).
 */
#include "patch.h"

const struct altmem__copy_plan *altmem__arch_copy_plan(uintptr_t site, uintptr_t target, size_t room,
                                                       const char **why)
{
    (void)site;
    (void)target;
    (void)room;
    if (why)
        *why = "this architecture's entries keep the branch";
    return 0;
}

int altmem__arch_copy_apply(uintptr_t site, uintptr_t target, const struct altmem__copy_plan *plan, int check)
{
    (void)site;
    (void)target;
    (void)plan;
    (void)check;
    return 0;
}
