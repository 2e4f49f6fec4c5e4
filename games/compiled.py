"""Which path runs: the rules and the search's loop compiled by mypyc, or the same modules interpreted.

The build (setup.py) compiles a few modules into C extensions beside their sources, where it can, and records in
`games/compiled.json` which, with the sha256 of each source. Python loads an extension before a `.py` of the same
name, so a compiled install runs them compiled unless, before any of them loads (`games/__init__.py` calls
`install` first thing), this module puts a finder in front that loads their `.py` sources instead:
- when TABLETOP_PURE_PYTHON=1 (the pure path in a compiled install: tests and benchmarks compare the two);
- when a source no longer matches what was compiled (an editable install whose rules were edited since): all of
  them then run interpreted, and `PATH` says so, until the next `make venv` or `pip install -e .` builds them again.

`PATH` is one line saying which path runs and why, for the worker's start and the benchmarks. Not rules: the one
module of an engine package that reads the environment and the file system, once, when `games` is imported.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import typing
from functools import cache
from pathlib import Path
from typing import Any

ENV = "TABLETOP_PURE_PYTHON"
MANIFEST = Path(__file__).with_name("compiled.json")

# Set by `install`: the modules the build compiled, whether they run compiled, and the line saying which path runs.
MODULES: tuple[str, ...] = ()
COMPILED = False
PATH = "pure Python (not yet decided)"


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the named modules from their `.py` sources even where a compiled extension sits beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001 - importlib's signature
        if fullname not in self.names:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path if path is not None else sys.path:
            source = os.path.join(entry, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _read_manifest() -> tuple[str | None, dict[str, str], str]:
    """The compiler, the compiled modules with their sources' sha256, and why nothing was compiled (if so)."""
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return None, {}, f"no build record ({MANIFEST.name}): not installed by pip"
    modules = data.get("modules") or {}
    why_not = str(data.get("why_not") or "")
    return data.get("compiler"), {str(k): str(v) for k, v in modules.items()}, why_not


def _stale(root: Path, modules: dict[str, str]) -> list[str]:
    """The compiled modules whose source changed since the build, or whose extension is missing."""
    stale = []
    for name, digest in modules.items():
        source = root.joinpath(*name.split(".")).with_suffix(".py")
        try:
            same = hashlib.sha256(source.read_bytes()).hexdigest() == digest
        except OSError:
            same = False
        built = any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
        if not (same and built):
            stale.append(name)
    return stale


def install() -> None:
    """Decide which path runs, once, before any compiled module loads; put the finder in place for the pure one."""
    global MODULES, COMPILED, PATH
    if any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        return
    compiler, modules, why_not = _read_manifest()
    MODULES = tuple(sorted(modules))
    if not modules:
        PATH = f"pure Python (nothing was compiled at install: {why_not or 'unknown why'})"
        return
    stale = _stale(Path(__file__).resolve().parent.parent, modules)
    if os.environ.get(ENV, "") not in ("", "0"):
        PATH = f"pure Python ({ENV}=1; compiled by {compiler}: {len(modules)} modules)"
    elif stale:
        PATH = (f"pure Python: the sources of {', '.join(stale)} changed since they were compiled "
                "(make venv or pip install -e . compiles them again)")
    else:
        COMPILED = True
        PATH = f"compiled by {compiler}: {', '.join(MODULES)}"
        return
    sys.meta_path.insert(0, _SourcesFirst(frozenset(modules)))


def loaded() -> dict[str, bool]:
    """Every compiled module loaded so far -> whether it runs compiled (an extension module): what the tests check."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return {
        name: str(getattr(sys.modules[name], "__file__", "") or "").endswith(suffixes)
        for name in MODULES
        if name in sys.modules
    }


@cache
def field_types(cls: type) -> dict[str, Any]:
    """The field types a dataclass was written with (the codec's, games.codec): `typing.get_type_hints`, except for
    a class compiled by mypyc (a native class: `__mypyc_attrs__`), whose `__annotations__` (and dataclass fields'
    `type`) mypyc rewrote to the C types it stores: a field written `int | None` reads back as `type`. The build keeps
    every compiled module's source beside its extension, checked by hash above, so such a class's annotations are
    read there (its body's, and its dataclass bases' by this same function) and evaluated in its module as
    `typing.get_type_hints` evaluates them. So are those of a class of a compiled module that is not native
    (`mypyc_attr(native_class=False)`)."""
    module_file = str(getattr(sys.modules[cls.__module__], "__file__", "") or "")
    in_extension = module_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    if "__mypyc_attrs__" not in cls.__dict__ and not in_extension:
        return typing.get_type_hints(cls)
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__[1:]):
        if dataclasses.is_dataclass(base):
            hints.update(field_types(base))
    module = sys.modules[cls.__module__]
    source = Path(str(module.__file__)).with_name(cls.__module__.rpartition(".")[2] + ".py")  # beside the extension
    tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
    body = next((node.body for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls.__qualname__),
                None)
    if body is None:
        raise TypeError(f"{cls.__qualname__} is not a top-level class of {source}")
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    written = {stmt.target.id: ast.unparse(stmt.annotation) for stmt in body
               if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in fields}
    holder = type(cls.__name__, (), {"__annotations__": written, "__module__": cls.__module__})
    hints.update(typing.get_type_hints(holder, vars(module)))
    return hints
