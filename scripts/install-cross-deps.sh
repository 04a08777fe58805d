#!/usr/bin/env bash
# Installs what the other-architecture parts of `make check` need on Debian 12
# (bookworm), non-interactively: the cross compilers, C libraries and emulators of
# the cross.* tests (docs/arch-notes.md).  .ci/run runs it after install-deps.sh.
#
#   scripts/install-cross-deps.sh
#
#   gcc-aarch64-linux-gnu libc6-dev-arm64-cross     aarch64 glibc builds (static, dynamic)
#   gcc-riscv64-linux-gnu libc6-dev-riscv64-cross   riscv64 glibc builds
#   clang-19 lld-19                                 loongarch64 freestanding build
#   qemu-user                                       qemu 7.2, dynamically linked: runs every
#                                                   cross test and loads the misalignment
#                                                   plugin (qemu-user-static cannot)
#   musl-tools                                      the musl build (musl-gcc, static)
#
# And, from bookworm-backports, qemu-user 10.0.2: LSX/LASX on loongarch64 and
# riscv_hwprobe, which 7.2 lacks (the qemu_bpo.* tests).  It is not installed: the
# one .deb is downloaded with a private apt configuration (a temporary sources list
# and package index; /etc/apt is not touched) at a pinned version, checked by apt
# against the archive's signed index, and unpacked into ALTMEM_QEMU_BPO_DIR (default
# /opt/altmem/qemu-bpo), keeping only qemu-aarch64, -riscv64 and -loongarch64.  So
# the system's qemu-user 7.2 and every other package stay exactly as they were.
#
# Idempotent: with everything present it changes nothing and does not touch the
# network.  Not root: prints what is missing and the commands to get it, exits 0
# (the cross.* tests then report themselves skipped, with the reason).
set -euo pipefail

packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
          clang-19 lld-19 qemu-user musl-tools)
bpo_version=${ALTMEM_QEMU_BPO_VERSION:-1:10.0.2+ds-2+deb13u1~bpo12+1}
bpo_dir=${ALTMEM_QEMU_BPO_DIR:-/opt/altmem/qemu-bpo}
bpo_bins=(qemu-aarch64 qemu-riscv64 qemu-loongarch64)
root=0
[ "$(id -u)" -eq 0 ] && root=1

# ---- Debian 12 packages ----------------------------------------------------------------
# (a command substitution, which set -e checks: a process substitution's failure
# would leave the list empty, "all present")
missing_list=$("$(dirname "${BASH_SOURCE[0]}")/missing-packages.sh" "${packages[@]}")
mapfile -t missing <<<"$missing_list"
[ -n "$missing_list" ] || missing=()
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-cross-deps.sh: all present: ${packages[*]}"
elif [ $root -eq 0 ]; then
    echo "install-cross-deps.sh: missing: ${missing[*]}; not root, so installing nothing. As root run:" >&2
    echo "  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}" >&2
else
    echo "install-cross-deps.sh: missing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
    echo "install-cross-deps.sh: installed: ${missing[*]}"
fi

# ---- qemu-user 10 from bookworm-backports, unpacked aside ------------------------------
stamp=$bpo_dir/VERSION
bpo_complete() {
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$bpo_version" ] || return 1
    for b in "${bpo_bins[@]}"; do
        [ -x "$bpo_dir/usr/bin/$b" ] || return 1
    done
}
if bpo_complete; then
    echo "install-cross-deps.sh: qemu-user $bpo_version already unpacked in $bpo_dir"
    exit 0
fi
if [ $root -eq 0 ] && ! mkdir -p "$bpo_dir" 2>/dev/null; then
    echo "install-cross-deps.sh: cannot write $bpo_dir; run as root, or set ALTMEM_QEMU_BPO_DIR to a" \
         "writable directory (and ALTMEM_QEMU_BPO=\$ALTMEM_QEMU_BPO_DIR/usr/bin for make check)" >&2
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/altmem-qemu-bpo.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/sources.list.d" "$work/preferences.d"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] http://deb.debian.org/debian bookworm-backports main" >"$work/sources.list"
apt_private=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=$work/sources.list.d"
             -o "Dir::Etc::preferencesparts=$work/preferences.d"
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
             -o "APT::Sandbox::User=root")
echo "install-cross-deps.sh: fetching the bookworm-backports index (private apt configuration in $work)"
if ! apt-get "${apt_private[@]}" update >"$work/update.log" 2>&1; then
    cat "$work/update.log" >&2
    echo "install-cross-deps.sh: bookworm-backports is not reachable; the qemu_bpo.* tests will be skipped" >&2
    exit 0
fi
(cd "$work" && apt-get "${apt_private[@]}" download "qemu-user=$bpo_version") || {
    echo "install-cross-deps.sh: qemu-user $bpo_version is not in bookworm-backports (any more?);" \
         "available: $(apt-cache "${apt_private[@]}" madison qemu-user | awk -F'|' '{print $2}' | xargs)." \
         "Set ALTMEM_QEMU_BPO_VERSION to one of them." >&2
    exit 0
}
deb=$(ls "$work"/qemu-user_*.deb)
dpkg-deb -x "$deb" "$work/x"
mkdir -p "$bpo_dir/usr/bin" "$bpo_dir/usr/share/doc"
for b in "${bpo_bins[@]}"; do
    install -m 755 "$work/x/usr/bin/$b" "$bpo_dir/usr/bin/$b"
done
cp -r "$work/x/usr/share/doc/qemu-user" "$bpo_dir/usr/share/doc/" 2>/dev/null || true
echo "$bpo_version" >"$stamp"
echo "install-cross-deps.sh: unpacked qemu-user $bpo_version ($(basename "$deb")) into $bpo_dir:" \
     "$("$bpo_dir/usr/bin/qemu-riscv64" --version | head -n 1)"
