"""Information-set MCTS over the engine interface, baselines and the AI worker. Never imports service."""
