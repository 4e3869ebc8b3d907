"""The one build step pyproject.toml cannot declare: each language's gettext catalog
(companion/text/locale/<code>/LC_MESSAGES/companion.po) compiled to the .mo the device
reads (companion/text/language.py), with Babel.

A wheel gets the .mo files beside the code (`pip install .`, systemd/install.sh); an
editable install (`pip install -e .`, scripts/setup-venv.sh) writes them beside their
.po in the checkout. They are never committed (.gitignore).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

TOP = Path(__file__).resolve().parent
CATALOGS = Path("companion", "text", "locale")


def catalogs() -> list[Path]:
    """Every .po, relative to the checkout."""
    return sorted(path.relative_to(TOP) for path in (TOP / CATALOGS).glob("*/LC_MESSAGES/*.po"))


def compile_catalog(po: Path, mo: Path) -> None:
    """Compile `po` into `mo`; its fuzzy messages (a translator's unchecked guesses) are
    left out, and so shown in English."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parts[-3])
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as target:
        write_mo(target, catalog)


class BuildPyWithCatalogs(build_py):
    """build_py that also compiles the catalogs: into the build (a wheel) or, for an
    editable install, in place."""

    def run(self) -> None:
        super().run()
        for po, mo in self._compiled().items():
            compile_catalog(TOP / po, mo)

    def _compiled(self) -> dict[Path, Path]:
        home = TOP if self.editable_mode else Path(self.build_lib)
        return {po: home / po.with_suffix(".mo") for po in catalogs()}

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        compiled = [str(mo) for mo in self._compiled().values()]
        return [*super().get_outputs(include_bytecode), *compiled]

    def get_output_mapping(self) -> dict[str, str]:
        compiled = {str(mo): str(TOP / po) for po, mo in self._compiled().items()}
        return {**super().get_output_mapping(), **compiled}


setup(cmdclass={"build_py": BuildPyWithCatalogs})
