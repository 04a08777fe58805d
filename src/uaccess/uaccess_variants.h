/* The copy_user / clear_user prototypes, generated from the registry
   (src/registry.def). */
#ifndef ALTMEM_UACCESS_VARIANTS_H
#define ALTMEM_UACCESS_VARIANTS_H

#include "../registry.h"

#endif
