"""Helpers of the ISMCTS search (ai/ismcts.py): root parallelism and forked work without pickle."""
