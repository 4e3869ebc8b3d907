#!/usr/bin/env bash
# Creates .venv beside the checkout (once) and installs the companion with the
# extras given as arguments; later runs only reinstall when pyproject.toml changed.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras="${1:-dev}"
venv="$top/.venv"
stamp="$venv/.installed-$extras"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ] || [ "$top/pyproject.toml" -nt "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e "$top[$extras]"
    touch "$stamp"
fi
