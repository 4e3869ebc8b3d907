#!/usr/bin/env bash
# Quick start: sets up .venv if needed, then runs every check: lint, formatting, types, the
# import contract, and the test suite with the doctests of companion/ (arguments go to pytest).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup-venv.sh" dev
cd "$top"
.venv/bin/ruff check
.venv/bin/ruff format --check
.venv/bin/mypy  # its configuration, and the files it checks, are in pyproject.toml
.venv/bin/lint-imports --no-cache  # the import contract in pyproject.toml (docs/ARCHITECTURE.md)
# pytest exits 5 when it collects no test; that must fail here, and it does (set -e).
# One worker per core (-n auto, pytest-xdist; pyproject.toml lets an idle worker take the
# other's tests), since most of the suite's time is programs it starts (docs/PERFORMANCE.md).
# `-n 0` after it runs everything in this process, for a debugger or a print.
.venv/bin/python -m pytest -n auto "$@"
