#!/usr/bin/env bash
# Creates .venv beside the checkout (once) and installs the companion with the extras
# given as the argument (desktop: what playing needs; dev: that and the test tools);
# later runs only reinstall when pyproject.toml or a catalog (.po, compiled to .mo by the
# install: setup.py) changed. Says each step on stderr, so a first start is never a
# silent wait.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras="${1:-dev}"
venv="$top/.venv"
fresh() {
    local stamp="$venv/.installed-$1"
    [ -f "$stamp" ] && [ ! "$top/pyproject.toml" -nt "$stamp" ] &&
        [ -z "$(find "$top/companion/text/locale" -name '*.po' -newer "$stamp" -print -quit)" ]
}
# dev holds desktop: a checkout set up for the tests plays without installing again.
if fresh "$extras" || { [ "$extras" = desktop ] && fresh dev; }; then
    exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "Creating .venv (once) ..." >&2
    python3 -m venv "$venv"
fi
case "$extras" in
    desktop) what="the companion and its window (luma.emulator, pygame)" ;;
    dev) what="the companion, its window and the test tools (pytest, ruff, mypy ...)" ;;
    *) what="the companion with [$extras]" ;;
esac
echo "Installing $what into .venv ..." >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$top[$extras]"
touch "$venv/.installed-$extras"
echo "Installed." >&2
