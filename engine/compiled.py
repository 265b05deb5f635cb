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

import copy
import dataclasses
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: str, **options: Any) -> Any:
        """mypyc's class options; nothing to do at run time."""
        return lambda cls: cls


__all__ = ["ENGINE_COMPILED", "compiled_modules", "copied", "fields_of", "mypyc_attr", "new_like", "set_fields"]

T = TypeVar("T")


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


def native(cls: type) -> bool:
    """Whether ``cls`` is a native class of the compiled build (or an interpreted subclass of one):
    its fields live in slots that mypyc lists in ``__mypyc_attrs__``, not in an instance dict."""
    return hasattr(cls, "__mypyc_attrs__")


def fields_of(obj: object) -> dict[str, Any]:
    """``obj``'s fields by name, as ``vars`` gives them in pure Python; for a native object the
    fields mypyc lists that are set, and its instance dict's (an interpreted subclass's) too."""
    if not native(type(obj)):
        return vars(obj)
    fields = {name: getattr(obj, name) for name in type(obj).__mypyc_attrs__  # type: ignore[attr-defined]
              if name != "__dict__" and hasattr(obj, name)}
    fields.update(getattr(obj, "__dict__", {}))
    return fields


def new_like(model: T) -> T:
    """A new object of ``model``'s class for a copier to fill field by field (:func:`set_fields`, or
    ``object.__setattr__`` for each): in pure Python a bare ``object.__new__``, no ``__init__`` run,
    the cheapest. A native class refuses that (its ``__new__`` runs ``__init__``), so there it is
    made by its constructor: a dataclass by ``dataclasses.replace`` (``model``'s own values until
    replaced), anything else by ``copy.copy`` (the state's ``__copy__``)."""
    cls = type(model)
    if not native(cls):
        new: T = object.__new__(cls)
        return new
    if dataclasses.is_dataclass(model):
        return dataclasses.replace(model)  # type: ignore[type-var]
    return copy.copy(model)


def set_fields(obj: T, values: dict[str, Any]) -> T:
    """``obj`` (from :func:`new_like`) given ``values`` as all its fields: its instance dict
    becomes ``values`` in pure Python; a native object's fields are set one by one."""
    if not native(type(obj)):
        obj.__dict__ = values
        return obj
    for name, value in values.items():
        object.__setattr__(obj, name, value)
    return obj


def copied(obj: T) -> T:
    """``copy.copy(obj)``, with an instance dict of its own: compiled, ``copy.copy`` of an
    interpreted subclass of a native class (a Halls of Horror or Haunted state: the compiled
    ``GameState``'s subclasses) gives an object that shares the original's dict (mypyc 2.4.1)."""
    other = copy.copy(obj)
    if native(type(obj)) and hasattr(obj, "__dict__"):
        other.__dict__ = dict(vars(obj))
    return other
