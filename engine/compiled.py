"""The optional compiled build: which of the engine's modules mypyc compiled, and mypyc's class options.

``HAUNTCHECK_COMPILE=1 pip install .`` compiles the play-hot modules (``setup.py`` lists them) with
mypyc (opt-in); a plain ``pip install .`` leaves every module pure Python. Compiled,
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
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: str, **options: Any) -> Any:
        """mypyc's class options; nothing to do at run time."""
        return lambda cls: cls


__all__ = ["ENGINE_COMPILED", "compiled_modules", "mypyc_attr"]


def loads_compiled(module: str) -> bool:
    """Whether importing ``module`` loads a compiled extension (found without importing it)."""
    spec = find_spec(module)
    return spec is not None and str(spec.origin).endswith(tuple(EXTENSION_SUFFIXES))


#: Whether this install is the compiled build (``core``, which every game's state builds on, is
#: compiled in every variant of it). Tests that cannot run against it skip by this flag.
ENGINE_COMPILED = loads_compiled("hauntcheck.engine.core")


def compiled_modules() -> list[str]:
    """The hauntcheck modules imported so far that were loaded from a compiled extension
    (none in the pure-Python install)."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("hauntcheck.") and str(getattr(module, "__file__", "")).endswith(suffixes))
