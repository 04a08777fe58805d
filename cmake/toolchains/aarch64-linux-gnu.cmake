# Cross build for aarch64 Linux with Debian's gcc-aarch64-linux-gnu and glibc
# (libc6-dev-arm64-cross); CTest runs every test program under qemu-aarch64.
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#         [-DALTMEM_CROSS_STATIC=ON]        # link test programs -static (default: dynamic)
#         [-DALTMEM_QEMU=/path/to/qemu-aarch64]
#
# scripts/cross-check.sh aarch64 (or `make check-aarch64`) does this and runs the suite;
# docs/arch-notes.md says what runs where.
set(ALTMEM_CROSS_TRIPLE aarch64-linux-gnu)
set(ALTMEM_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
