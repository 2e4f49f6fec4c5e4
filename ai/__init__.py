"""Information-set MCTS over the engine interface, baselines, the arena and the AI worker. Never imports service."""
