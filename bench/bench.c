/* Placeholder replaced by the benchmark (being written). */
#include <stdio.h>
#include "bench.h"
int altmem_bench_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "altmem: bench not built yet\n");
    return 1;
}
