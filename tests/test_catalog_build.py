"""Building the package compiles every catalog: a wheel built from a checkout with no .mo
in it (as a clean clone has, .gitignore keeping them out) holds each language's .mo,
and the standard library's gettext reads the translations from it."""

from __future__ import annotations

import gettext
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from companion.testing.catalogs import TRANSLATED, messages, translated

TOP = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE")


def test_a_wheel_built_from_a_clean_checkout_holds_every_compiled_catalog(tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in SOURCES:
        shutil.copy2(TOP / name, checkout / name)
    shutil.copytree(
        TOP / "companion", checkout / "companion", ignore=shutil.ignore_patterns("*.mo", "*.pyc")
    )
    assert not list(checkout.rglob("*.mo"))
    # The build's own step (setup.py), with this environment's setuptools and Babel:
    # what pip runs for `pip install .` and systemd/install.sh, without the network.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(tmp_path / "dist"), str(checkout)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        compiled = {name for name in archive.namelist() if name.endswith(".mo")}
        assert compiled == {
            f"companion/text/locale/{language}/LC_MESSAGES/companion.mo" for language in TRANSLATED
        }
        for language in TRANSLATED:
            with archive.open(f"companion/text/locale/{language}/LC_MESSAGES/companion.mo") as mo:
                catalog = gettext.GNUTranslations(mo)
            expected = translated(messages(language)["Statistics"])[0]
            assert catalog.gettext("Statistics") == expected != "Statistics"
