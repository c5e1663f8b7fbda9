#!/usr/bin/env bash
# Set up (first run only) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec pnpm test
