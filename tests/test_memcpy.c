/*
 * memcpy: every runnable variant, called through the variant table, and the
 * public altmem_memcpy.  See testlib.h for how a case is checked and the parts
 * for what is covered; `test_memcpy --self-test` proves the checker catches
 * broken copies (tl_broken_copy).
 */
#include "testlib.h"

static const struct tl_part parts[] = {
    {"zero", tl_part_copy_zero},   /* n == 0 with NULL and guard-page pointers */
    {"same", tl_part_copy_same},   /* dst == src                               */
    {"guard", tl_part_copy_guard}, /* windows flush against PROT_NONE pages    */
    {"sweep", tl_part_copy_sweep}, /* n 0..1024 x src offset 0..63 x dst 0..63 */
    {"large", tl_part_copy_large}, /* 2 KiB .. 64 MiB                          */
    {"page-ends", tl_part_copy_page_ends}, /* first or last bytes across a page */
    {"nt", tl_part_copy_nt},       /* sizes around lowered non-temporal thresholds */
    {"string", tl_part_copy_string}, /* sizes around rep movsb starts (ALTMEM_TUNABLES) */
};

int main(int argc, char **argv)
{
    return tl_main(argc, argv, ALTMEM_MEMCPY, parts, sizeof parts / sizeof parts[0], NULL, 0);
}
