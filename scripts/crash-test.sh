#!/usr/bin/env bash
# The crash test at full strength: the end-to-end lab (scripts/e2e-user-unit.sh) with hundreds of SIGKILLs at
# random moments while a colleague changes records; then every change must be in the journal exactly once and
# on the desktop at most once. `make test` runs the same step with 10 kills.
#
#   sudo scripts/crash-test.sh [ITERATIONS]     (default 300; root, after `swift build`)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CRASH_ITERATIONS=${1:-300} exec "$here/e2e-user-unit.sh"
