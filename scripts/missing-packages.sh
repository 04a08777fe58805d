#!/usr/bin/env bash
# Prints, one per line, which of the Debian packages named are not installed
# (for install-deps.sh and install-cross-deps.sh).
#
#   scripts/missing-packages.sh PACKAGE...
set -euo pipefail
for p in "$@"; do
    if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != installed ]; then
        echo "$p"
    fi
done
