"""Information-set MCTS over the engine interface, baselines and the AI worker. Never imports service."""

import games  # noqa: F401 - games.compiled decides, before the search's compiled loop (ai.search.loop) loads, which path runs
