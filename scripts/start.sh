#!/usr/bin/env bash
# Set up (first run only) and start patterm in the current directory.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/bootstrap.sh"
exec node "$here/bin/patterm" "$@"
