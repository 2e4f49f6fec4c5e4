"""The build's one step beyond pyproject.toml: the rules and the search's loop compiled by mypyc, when it can be.

`pip install .` and `pip install -e .` (which `make venv` runs) compile the modules in COMPILED with mypyc (from
the build requirements) into C extensions beside their sources, where a C compiler and the Python headers exist.
Where they do not, or mypyc refuses the code, the build prints why and installs the pure-Python modules alone:
the same code, run by the interpreter (`games.compiled` says at run time which path runs, and
TABLETOP_PURE_PYTHON=1 runs the pure path in a compiled install). TABLETOP_REQUIRE_COMPILED=1 turns the fallback
into a failed build (the container image sets it). docs/ai.md, "Compiled", says why mypyc and what it buys.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import textwrap
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules mypyc compiles: each game's rules on its working state, and the search's loop. Each must type-check
# (mypy) and run alike compiled and interpreted (tests/conformance, tests/ai/test_compiled.py).
COMPILED = (
    # The moves and their base: native classes, whose fields the compiled rules read as C fields (games/move.py).
    "games/move.py",
    # A game's rules and playout pick as one native object, the search's loop calls (games/search_rules.py).
    "games/search_rules.py",
    # The checked engine's moves on frozen states, the native base of games.base.Game (games/checked.py).
    "games/checked.py",
    "games/hinode/moves.py",
    "games/naishi/moves.py",
    "games/zipang/moves.py",
    "games/kungfur/moves.py",
    "games/hinode/state.py",
    "games/hinode/work.py",
    "games/hinode/scoring.py",
    "games/hinode/rules.py",
    "games/hinode/policy.py",
    "games/kungfur/state.py",
    "games/kungfur/work.py",
    "games/kungfur/planning.py",
    "games/kungfur/regroup.py",
    "games/kungfur/battle.py",
    "games/kungfur/rules.py",
    "games/kungfur/scoring.py",
    "games/kungfur/policy.py",
    "games/deal.py",
    "games/tuples.py",
    "games/values.py",
    "games/hinode/views.py",
    "games/kungfur/views.py",
    "games/naishi/views.py",
    "games/zipang/views.py",
    "games/zipang/evidence.py",
    "games/zipang/greedy.py",
    "games/naishi/state.py",
    "games/naishi/knowledge.py",
    "games/naishi/rules.py",
    "games/naishi/scoring.py",
    "games/naishi/policy.py",
    "games/zipang/state.py",
    "games/zipang/work.py",
    "games/zipang/legal.py",
    "games/zipang/rules.py",
    "games/zipang/scoring.py",
    "games/zipang/policy.py",
    "ai/search/loop.py",
)
GROUP = "tabletop_compiled"  # the shared library holding them all: tabletop_compiled__mypyc*.so
MANIFEST = "games/compiled.json"  # what was compiled, from which sources (games.compiled reads it)
# The C flags for the one shared library, each kept where the compiler takes it (`_flags_taken`). Its functions call
# each other and mypyc's runtime helpers, all in one translation unit; as exported symbols of a position-independent
# library they are calls through the PLT that GCC may not inline, in case another library interposes them (none
# does): `-fno-semantic-interposition` lets it call them directly and inline them, as CPython builds its own
# library. `-fno-plt` calls into libpython through the GOT, not a PLT stub. Together, a compiled Kung Fur Fight
# search's playout move took 6% fewer instructions and 13% less time (docs/benchmarks.md, *Nineteenth step*).
NATIVE_CALLS = ("-fno-semantic-interposition", "-fno-plt")
ROOT = Path(__file__).resolve().parent
_ONCE: dict = {}  # the probe's answer and mypyc's extensions, once per process (setuptools may ready a command twice)


def _warn(message: str) -> None:
    text = textwrap.fill(message, 110, initial_indent="tabletop build: ", subsequent_indent="  ")
    print(text, file=sys.stderr, flush=True)


def _required() -> bool:
    return os.environ.get("TABLETOP_REQUIRE_COMPILED", "") not in ("", "0")


class OptionalMypycBuild(build_ext):
    """build_ext that compiles COMPILED with mypyc if it can and otherwise leaves the pure-Python modules alone.

    The extensions are made when the build command is readied, not when setup.py loads: pip runs setup.py several
    times (requirements, metadata, the build) and only the build needs mypy's time."""

    why_not: str | None = None  # why the pure path only (None: compiling)

    def finalize_options(self) -> None:
        # Before setuptools' own finalize_options, which readies each extension for its build. On the pure path the
        # placeholder stays (without extensions setuptools would skip this command, and an editable install's
        # extensions from an earlier build would stay beside their sources); `run` then builds nothing.
        why = self._cannot_compile()
        if why is None:
            try:
                self.distribution.ext_modules = self.extensions = self._mypyc_extensions()
            except (Exception, SystemExit) as exc:  # mypyc reports type errors by exiting
                why = (f"mypyc could not compile the rules ({type(exc).__name__}: {str(exc)[:160]}; "
                       "pip install -v shows more)")
        if why is not None and _required():
            raise SystemExit(f"tabletop build: {why}, and TABLETOP_REQUIRE_COMPILED is set")
        self.why_not = why
        super().finalize_options()

    def run(self) -> None:
        if self.why_not is not None:
            _warn(f"{self.why_not}: installing the pure-Python path only (the same code, interpreted; slower).")
            self._write_manifest({}, self.why_not)
            self._remove_stale_extensions()
            return
        super().run()
        self._write_manifest({path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED})

    def get_outputs(self) -> list[str]:
        return [] if self.why_not is not None else super().get_outputs()

    def get_output_mapping(self) -> dict[str, str]:
        return {} if self.why_not is not None else super().get_output_mapping()

    def _cannot_compile(self) -> str | None:
        """Why no C extension can be built here (None: it can): no compiler, no Python headers, not CPython."""
        if "probe" not in _ONCE:
            _ONCE["probe"] = self._probe()
        return _ONCE["probe"]

    def _probe(self) -> str | None:
        if sys.implementation.name != "cpython":
            return f"mypyc builds for CPython, not {sys.implementation.name}"
        if os.environ.get("TABLETOP_PURE_BUILD", "") not in ("", "0"):
            return "TABLETOP_PURE_BUILD is set"
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler, get_python_inc

        compiler = new_compiler()
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as scratch:
            probe = Path(scratch, "probe.c")
            probe.write_text("#include <Python.h>\nint tabletop_probe(void) { return Py_IsInitialized(); }\n")
            try:
                compiler.compile([str(probe)], output_dir=scratch, include_dirs=[get_python_inc()])
            except Exception as exc:  # CompileError, or the compiler is missing
                return f"no working C compiler with the Python headers ({type(exc).__name__}: {str(exc)[:160]})"
        return None

    def _mypyc_extensions(self) -> list[Extension]:
        if "extensions" not in _ONCE:
            _ONCE["extensions"] = self._mypycify()
        return _ONCE["extensions"]

    def _mypycify(self) -> list[Extension]:
        from mypyc.build import mypycify

        here = os.getcwd()
        os.chdir(ROOT)  # mypy finds our packages from the project's root
        try:
            extensions = mypycify(
                ["--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
                opt_level="3",
                group_name=GROUP,
                target_dir=str(Path("build", "mypyc")),
            )
        finally:
            os.chdir(here)
        flags = self._flags_taken(NATIVE_CALLS)
        for extension in extensions:
            extension.extra_compile_args = [*extension.extra_compile_args, *flags]
        return extensions

    def _flags_taken(self, flags: tuple[str, ...]) -> list[str]:
        """Those of `flags` the C compiler takes: each tried on a file of its own (an older GCC or Clang may not
        know one, and stops at it)."""
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler

        compiler = new_compiler()
        customize_compiler(compiler)
        taken = []
        with tempfile.TemporaryDirectory() as scratch:
            probe = Path(scratch, "flag.c")
            probe.write_text("int tabletop_flag(void) { return 0; }\n")
            for flag in flags:
                try:
                    compiler.compile([str(probe)], output_dir=scratch, extra_postargs=[flag, "-Werror"])
                except Exception:  # CompileError: not a flag this compiler knows
                    _warn(f"the C compiler does not take {flag}: building without it")
                else:
                    taken.append(flag)
        return taken

    def _remove_stale_extensions(self) -> None:
        """An editable install that built the extensions before and falls back now: its extensions beside the
        sources would still load (an extension comes before a .py of the same name), so they go."""
        if not (self.inplace or getattr(self, "editable_mode", False)):
            return
        from importlib.machinery import EXTENSION_SUFFIXES

        for stem in [path[: -len(".py")] for path in COMPILED] + [f"{GROUP}__mypyc"]:
            for suffix in EXTENSION_SUFFIXES:
                Path(ROOT, stem + suffix).unlink(missing_ok=True)

    def _write_manifest(self, sources: dict[str, str], why_not: str | None = None) -> None:
        """Record what was compiled and the sha256 of each source: games.compiled runs the pure path (and says
        why) when a source no longer matches its extension (an editable install whose rules were edited)."""
        modules = {path[: -len(".py")].replace("/", "."): digest for path, digest in sources.items()}
        record = {"compiler": "mypyc" if modules else None, "modules": modules, "why_not": why_not}
        text = json.dumps(record, indent=1) + "\n"
        targets = [Path(self.build_lib, MANIFEST)]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(ROOT / MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


# One placeholder, so that setuptools knows there are extensions to build (and makes a platform wheel); the real
# ones replace it in OptionalMypycBuild.finalize_options.
setup(
    ext_modules=[Extension(f"{GROUP}__placeholder", sources=[])],
    cmdclass={"build_ext": OptionalMypycBuild},
)
