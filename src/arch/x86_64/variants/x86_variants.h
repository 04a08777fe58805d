/* What the x86_64 vector variants (one file per routine and vector width)
   share: their prototypes, generated from the registry (src/registry.def), and
   the policy's thresholds, which say when they use rep movsb / rep stosb and
   non-temporal stores (src/policy.h). */
#ifndef ALTMEM_X86_VARIANTS_H
#define ALTMEM_X86_VARIANTS_H

#include "../../../policy.h"
#include "../../../registry.h"

#endif
