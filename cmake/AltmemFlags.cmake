# Warning and sanitizer flags for every target, and the per-file flags that the
# variants' "Assumptions:" rely on (altmem_variant_flags below).

# -g everywhere, except in the Debian package build (scripts/make-deb.sh), whose
# binaries are stripped and whose static libraries ship without debug info, as
# Debian strips them: there it only cost compile time.
option(ALTMEM_DEBUG_INFO "Compile with -g" ON)
mark_as_advanced(ALTMEM_DEBUG_INFO)
add_compile_options(-Wall -Wextra)
if(ALTMEM_DEBUG_INFO)
  add_compile_options(-g)
endif()
if(ALTMEM_WERROR)
  add_compile_options(-Werror)
endif()
if(ALTMEM_SANITIZE)
  add_compile_options(-fsanitize=${ALTMEM_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${ALTMEM_SANITIZE})
endif()

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" ALTMEM_ARCH)
if(ALTMEM_ARCH MATCHES "^(x86_64|amd64)$")
  set(ALTMEM_ARCH x86_64)
elseif(ALTMEM_ARCH MATCHES "^(aarch64|arm64)$")
  set(ALTMEM_ARCH aarch64)
elseif(ALTMEM_ARCH MATCHES "^riscv64")
  set(ALTMEM_ARCH riscv64)
elseif(ALTMEM_ARCH MATCHES "^loongarch64")
  set(ALTMEM_ARCH loongarch64)
endif()

# Library code must not call the C library: the compiler may otherwise turn a
# byte loop into a call to memcpy/memset (which, inside memcpy, recurses).
set(ALTMEM_NOLIBC_FLAGS -ffreestanding -fno-builtin)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  list(APPEND ALTMEM_NOLIBC_FLAGS -fno-tree-loop-distribute-patterns)
endif()
# gcc for aarch64 calls libgcc helpers (__aarch64_cas4_acq ...) for atomics unless
# told to inline them; freestanding programs may not link libgcc.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND ALTMEM_ARCH STREQUAL "aarch64")
  list(APPEND ALTMEM_NOLIBC_FLAGS -mno-outline-atomics)
endif()

# Strict-alignment variants: no auto-vectorisation (a 16-byte vector at an
# 8-aligned address is a misaligned access) and, where the target has the
# switch, a compiler that assumes strict alignment too.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(ALTMEM_STRICT_FLAGS -fno-tree-vectorize -fno-tree-slp-vectorize -fno-store-merging)
else()
  set(ALTMEM_STRICT_FLAGS -fno-vectorize -fno-slp-vectorize)
endif()
# clang's back end merges adjacent word loads/stores into 16-byte SSE/NEON moves
# even with vectorisers off; keeping the generic variants to general registers
# is the only switch that stops it.
if(ALTMEM_ARCH MATCHES "^(x86_64|aarch64)$")
  list(APPEND ALTMEM_STRICT_FLAGS -mgeneral-regs-only)
endif()
set(ALTMEM_UAL_FLAGS "")
if(ALTMEM_ARCH MATCHES "^(riscv64|loongarch64)$")
  list(APPEND ALTMEM_STRICT_FLAGS -mstrict-align)
  list(APPEND ALTMEM_UAL_FLAGS -mno-strict-align)
endif()
# GCC for riscv64 still splits an unaligned access into byte loads under
# -mno-strict-align when the tuning calls unaligned access slow, which its
# default tuning (rocket) does: the ual variants became byte copies (found by the
# misalignment proof's negative control under qemu, docs/arch-notes.md).  Tune
# them for a core whose tuning calls it fast: generic-ooo where GCC has it
# (14+), else thead-c906 (GCC 12, 13).
if(ALTMEM_ARCH STREQUAL "riscv64" AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  include(CheckCCompilerFlag)
  check_c_compiler_flag(-mtune=generic-ooo ALTMEM_HAVE_TUNE_GENERIC_OOO)
  if(ALTMEM_HAVE_TUNE_GENERIC_OOO)
    list(APPEND ALTMEM_UAL_FLAGS -mtune=generic-ooo)
  else()
    list(APPEND ALTMEM_UAL_FLAGS -mtune=thead-c906)
  endif()
endif()

# x86_64 with glibc: a static program takes glibc's kept CPUID leaves into the
# link (libc.a's __x86_get_cpuid_feature_leaf, which the library references
# weakly so that the same archive links with musl, which has none; a weak
# reference alone takes no member out of an archive): 3 CPUID instructions
# fewer at start-up, 10 us in a virtual machine (docs/dropin.md, "Static
# programs").  The symbol the link must ask for, or empty; altmem_static's link
# options and the pkg-config file's Libs.private carry it.
set(ALTMEM_STATIC_UNDEFINED "")
if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_MUSL AND NOT ALTMEM_FREESTANDING)
  set(ALTMEM_STATIC_UNDEFINED __x86_get_cpuid_feature_leaf)
endif()
