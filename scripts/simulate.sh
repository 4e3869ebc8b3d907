#!/usr/bin/env bash
# Quick start: sets up .venv if needed (only what playing needs), then runs the
# companion in this terminal.
# Any arguments go to `patchwork-companion simulate` (try --help).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup-venv.sh" desktop
exec "$top/.venv/bin/patchwork-companion" simulate "$@"
