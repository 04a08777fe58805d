/* `altmem index` (tools/index.c). */
#ifndef ALTMEM_TOOLS_INDEX_H
#define ALTMEM_TOOLS_INDEX_H

/* argv[0] is "index".  Returns 0, 1 when a workload could not run or a file
   could not be written, 2 on a usage error. */
int altmem_index_main(int argc, char **argv);

#endif
