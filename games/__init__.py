"""Pure rules engines, one per game, behind the interface in games.base. Standard library only."""
