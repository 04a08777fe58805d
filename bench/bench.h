/* The benchmark behind `altmem bench` (bench/bench.c). */
#ifndef ALTMEM_BENCH_H
#define ALTMEM_BENCH_H

/* argv[0] is "bench"; returns the process exit status. */
int altmem_bench_main(int argc, char **argv);

/* altmem bench --scalar-effect: the time of scalar code next to each memcpy
   variant (bench/scalar_effect.c); the same convention. */
int altmem_bench_scalar_main(int argc, char **argv);

#endif
