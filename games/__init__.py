"""Pure rules engines, one per game, behind the interface in games.base. Standard library only.

Some of the rules run compiled (mypyc, setup.py): `games.compiled` decides here, before any of them loads, whether
they do (TABLETOP_PURE_PYTHON=1 runs them interpreted)."""

from games import compiled as _compiled

_compiled.install()
