# Cross build for riscv64 Linux with Debian's gcc-riscv64-linux-gnu and glibc
# (libc6-dev-riscv64-cross); CTest runs every test program under qemu-riscv64.
#
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-linux-gnu.cmake
#         [-DALTMEM_CROSS_STATIC=ON] [-DALTMEM_QEMU=/path/to/qemu-riscv64]
#
# scripts/cross-check.sh riscv64 (or `make check-riscv64`) does this and runs the suite.
set(ALTMEM_CROSS_TRIPLE riscv64-linux-gnu)
set(ALTMEM_CROSS_QEMU qemu-riscv64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
