# The x86_64 suite against musl instead of glibc: musl-gcc (Debian's musl-tools, a
# gcc wrapper whose specs use musl's headers, start-up files and libc.a), every
# program linked -static.  Not a cross build: the tests run natively.
#
#   cmake -S . -B build-musl -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-linux-musl.cmake
#
# musl-tools ships only the static libc.a for this wrapper, so there is no
# libaltmem.so here (ALTMEM_BUILD_SHARED is forced off); docs/arch-notes.md lists
# what the musl run skips and why.  scripts/cross-check.sh musl (`make check-musl`)
# configures, builds and runs it.
find_program(ALTMEM_MUSL_GCC NAMES musl-gcc x86_64-linux-musl-gcc DOC "musl's gcc wrapper")
set(CMAKE_C_COMPILER ${ALTMEM_MUSL_GCC})
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(ALTMEM_BUILD_SHARED OFF CACHE BOOL "musl-gcc links static programs only" FORCE)
set(ALTMEM_MUSL ON CACHE BOOL "Built against musl (tests skip what musl cannot do)" FORCE)
