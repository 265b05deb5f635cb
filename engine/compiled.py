"""The experimental compiled build: which of the engine's modules mypyc compiled, and mypyc's class options.

``HAUNTCHECK_COMPILE=1 pip install .`` compiles the play-hot modules (``setup.py`` lists them) with
mypyc (experimental, opt-in); a plain ``pip install .`` leaves every module pure Python. Compiled,
every golden transcript is re-recorded identically (benchmarks/README.md, "Compiled modules (mypyc)").

mypyc makes the classes of a compiled module *native*: fixed attributes, no interpreted subclasses,
no ``copy.copy`` unless asked. A class that needs one of those says so with ``@mypyc_attr(...)``,
which mypyc reads from the source; at run time it is a no-op. The name comes from
``mypy_extensions`` for mypy and mypyc, and from the stand-in below at run time, so that neither
install needs ``mypy_extensions``. This module itself is never compiled (mypyc would drop the
stand-in as unreachable).
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: str, **options: Any) -> Any:
        """mypyc's class options; nothing to do at run time."""
        return lambda cls: cls


__all__ = ["compiled_modules", "mypyc_attr"]


def compiled_modules() -> list[str]:
    """The hauntcheck modules imported so far that were loaded from a compiled extension
    (none in the pure-Python install)."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("hauntcheck.") and str(getattr(module, "__file__", "")).endswith(suffixes))
