#!/usr/bin/env bash
# Installs what `make check` needs on Debian 12 (bookworm), non-interactively.
#
#   scripts/install-deps.sh
#
#   build-essential    gcc 12, make, libc6-dev (with libc.a for the -static example)
#   cmake              3.25 (the project needs >= 3.20)
#   pkg-config         the pkg-config example tests (build.*, package.*)
#   dpkg-dev file      `make deb` and the package.* tests: dpkg-shlibdeps, and file, which
#                      CPack's DEB generator runs (dpkg-deb itself is in dpkg, always there)
#   groff-base         groff -ww -z -man: the man.groff.* tests (the man macros are in it)
#   clang-19 lld-19    the clang-19 -Werror build (scripts/sanitize.sh) and cross builds
#   libclang-rt-19-dev clang-19's ASan/UBSan runtime and libFuzzer (scripts/sanitize.sh, scripts/fuzz.sh)
#   llvm-19            llvm-objcopy-19: tests/check_encode_asm.sh extracts clang-19's branch encodings
#   binutils           objdump, nm, readelf (tests that inspect the built objects)
#   util-linux         setpriv (tests that run the CLI with changed privileges)
#   musl-tools         musl-gcc: a static musl program linked with libaltmem-libc.a
#   git python3        real programs the drop-in tests run under `altmem run`
#                      (tests/dropin/programs.sh; cp, tar, sort, gzip are always there)
#   gnuplot-nox        `altmem bench --plot` (charts; not needed by `make check`)
#   valgrind           scripts/small-cost.sh, scripts/dispatch-cost.sh (callgrind counts)
#
# Idempotent: when every package is already installed it changes nothing and does not
# touch the network.  Not root: prints what is missing and the command to install it,
# and exits 0 (the build then uses whatever is there; the sanitizer test reports itself
# skipped without clang-19).
set -euo pipefail

packages=(build-essential cmake pkg-config dpkg-dev file groff-base clang-19 lld-19 libclang-rt-19-dev llvm-19 binutils util-linux musl-tools git
          python3 gnuplot-nox valgrind)

# (a command substitution, which set -e checks: a process substitution's failure
# would leave the list empty, "all present")
missing_list=$("$(dirname "${BASH_SOURCE[0]}")/missing-packages.sh" "${packages[@]}")
mapfile -t missing <<<"$missing_list"
[ -n "$missing_list" ] || missing=()

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps.sh: all present: ${packages[*]}"
    exit 0
fi
echo "install-deps.sh: missing: ${missing[*]}"

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: not root, so installing nothing. As root run:" >&2
    echo "  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps.sh: installed: ${missing[*]}"
