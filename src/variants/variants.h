/* The variants' prototypes, generated from the registry (src/registry.def). */
#ifndef ALTMEM_VARIANTS_H
#define ALTMEM_VARIANTS_H

#include "../registry.h"

#endif
