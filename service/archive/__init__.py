"""The archive of finished games in PostgreSQL (docs/archive.md): the schema and its migrations (db.py), and the
writer that drains the Redis archive stream into it exactly once (writer.py)."""
