#!/usr/bin/env bash
# Another Debian release's C library, to run altmem's measurements against
# (docs/performance.md, "Against the newest glibc").
#
#   scripts/newer-glibc.sh SUITE [CACHE_DIR]
#
# Fetches the libc6 package of SUITE (trixie: glibc 2.41; sid: the newest) from the
# archive this machine's own apt sources name, with only the suite changed, and
# unpacks it under CACHE_DIR/SUITE (default: ${XDG_CACHE_HOME:-~/.cache}/altmem/glibc),
# outside the tree.  apt runs with private lists and cache directories there: the
# system's apt state is read, never written.  Prints one line, the library directory
# LIB, with which any program runs on that glibc:
#
#   LIB=$(scripts/newer-glibc.sh trixie)
#   "$LIB"/ld-linux-x86-64.so.2 --library-path "$LIB" build/tools/altmem bench
#
# A second call with the package there prints LIB without the network.
# Exit status: 0; 2 with a one-line reason for a bad or unknown suite; 77 with the
# reason when the archive cannot be reached (a test reports that as skipped); 1 for
# anything else.
set -euo pipefail
die() { echo "newer-glibc.sh: $2" >&2; exit "$1"; }
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
suite=$1
case $suite in
    '' | *[!a-z0-9.-]* | -*) die 2 "bad suite '$suite': a Debian suite or codename (trixie, sid, ...)" ;;
esac
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/altmem/glibc}
dir=$cache/$suite
arch=$(dpkg --print-architecture 2>/dev/null) || die 1 "dpkg --print-architecture failed: not a Debian system?"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || true)
[ -n "$multiarch" ] || die 1 "cannot tell this machine's multiarch triplet (dpkg-architecture, gcc -print-multiarch)"

lib_of() { # the unpacked tree's library directory, where ld.so is
    local d=$1/root/usr/lib/$multiarch
    ls "$d"/ld-linux*.so.* >/dev/null 2>&1 && { echo "$d"; return 0; }
    d=$1/root/lib/$multiarch
    ls "$d"/ld-linux*.so.* >/dev/null 2>&1 && { echo "$d"; return 0; }
    return 1
}
if lib=$(lib_of "$dir"); then
    echo "$lib"
    exit 0
fi

# The machine's Debian archive: the first "deb" source of a release suite (not
# -security, -updates or -backports), in deb822 (.sources) or one-line form.
source=$(
    {
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -r "$f" ] || continue
            awk 'BEGIN { RS = ""; FS = "\n" }
                 { t = u = s = k = ""
                   for (i = 1; i <= NF; i++) {
                       if ($i ~ /^Types:/) t = $i
                       if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); sub(/[ \t].*/, "", u) }
                       if ($i ~ /^Suites:/) { s = $i; sub(/^Suites:[ \t]*/, "", s); sub(/[ \t].*/, "", s) }
                       if ($i ~ /^Signed-By:/) { k = $i; sub(/^Signed-By:[ \t]*/, "", k) }
                   }
                   if (t ~ /[ \t]deb([ \t]|$)/ && u != "" && s !~ /-(security|updates|backports)$/) print u, k }' "$f"
        done
        for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
            [ -r "$f" ] || continue
            awk '$1 == "deb" { k = ""; u = $2; s = $3
                               if ($2 ~ /^\[/) { for (i = 2; i <= NF && $i !~ /\]$/; i++) if ($i ~ /signed-by=/) k = $i
                                                 if ($i ~ /signed-by=/) k = $i
                                                 u = $(i + 1); s = $(i + 2) }
                               gsub(/.*signed-by=|\]/, "", k)
                               if (s !~ /-(security|updates|backports)$/) print u, k }' "$f"
        done
    } | head -n 1
)
[ -n "$source" ] || die 1 "no Debian archive in this machine's apt sources (/etc/apt/sources.list*)"
uri=${source%% *}
keyring=${source#* }
[ "$keyring" != "$source" ] && [ -n "$keyring" ] || keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die 1 "the archive's keyring $keyring is not readable"

work=$dir/apt
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc" "$dir/deb"
cat >"$work/etc/altmem.sources" <<EOF
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: $keyring
EOF
apt_opts=(-o "Dir::Etc::sourcelist=/dev/null" -o "Dir::Etc::sourceparts=$work/etc"
          -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
          -o "Dir::State::status=/var/lib/dpkg/status" -o "APT::Architecture=$arch"
          -o "Debug::NoLocking=1" -o "APT::Get::List-Cleanup=0")
if ! out=$(apt-get "${apt_opts[@]}" update 2>&1); then
    :
fi
if grep -Eq "does not have a Release file|404 +Not Found" <<<"$out"; then
    die 2 "no suite '$suite' at $uri (apt: $(grep -E 'Release file|404' <<<"$out" | head -n 1 | sed 's/^[EW]: //'))"
fi
if grep -Eq "Could not resolve|Temporary failure|Failed to fetch|Could not connect|Network is unreachable" <<<"$out"; then
    die 77 "cannot reach $uri to fetch '$suite' ($(grep -E 'resolve|Temporary|Failed|connect|unreachable' <<<"$out" | head -n 1 | sed 's/^[EW]: //'))"
fi
ls "$work/lists/"*_dists_"${suite}"_*Packages* >/dev/null 2>&1 ||
    die 1 "apt-get update fetched no package list for '$suite': $(tail -n 1 <<<"$out")"
(cd "$dir/deb" && apt-get "${apt_opts[@]}" download libc6 >/dev/null 2>&1) ||
    die 1 "apt-get download libc6 from '$suite' failed"
deb=$(ls "$dir/deb"/libc6_*.deb | head -n 1)
rm -rf "$dir/root"
dpkg-deb -x "$deb" "$dir/root" || die 1 "dpkg-deb -x $deb failed"
lib=$(lib_of "$dir") || die 1 "no ld-linux*.so in $deb for $multiarch"
echo "$lib"
