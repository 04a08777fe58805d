/* The benchmark behind `altmem bench` (bench/bench.c). */
#ifndef ALTMEM_BENCH_H
#define ALTMEM_BENCH_H

/* argv[0] is "bench"; returns the process exit status.  Every mode of the
   bench goes through here (bench/modes.def). */
int altmem_bench_main(int argc, char **argv);

#endif
