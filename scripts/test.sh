#!/usr/bin/env bash
# Quick start: sets up .venv if needed, then runs every check: lint, formatting, types, the
# import contract, msgfmt on the catalogs, and the test suite with the doctests of companion/
# (arguments go to pytest).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/scripts/setup-venv.sh" dev
cd "$top"
.venv/bin/ruff check
.venv/bin/ruff format --check
.venv/bin/mypy  # its configuration, and the files it checks, are in pyproject.toml
.venv/bin/lint-imports --no-cache  # the import contract in pyproject.toml (docs/ARCHITECTURE.md)
# GNU gettext's own check of each catalog: its header, its plural forms against its
# Plural-Forms, and every placeholder of a translation one its English has.
if ! command -v msgfmt >/dev/null; then
    echo "msgfmt not found: install GNU gettext (Debian: apt-get install gettext)" >&2
    exit 1
fi
for catalog in companion/text/locale/*/LC_MESSAGES/*.po; do
    msgfmt --check --output-file=/dev/null "$catalog"
done
# pytest exits 5 when it collects no test; that must fail here, and it does (set -e).
# One worker per core (-n auto, pytest-xdist; pyproject.toml lets an idle worker take the
# other's tests), since most of the suite's time is programs it starts (docs/PERFORMANCE.md).
# `-n 0` after it runs everything in this process, for a debugger or a print.
.venv/bin/python -m pytest -n auto "$@"
