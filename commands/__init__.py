"""The `tabletop` command: the composition root. It parses arguments and calls the entry point of the part asked
for (service, worker, clients, the benchmarks of bench/), importing it lazily; it and the benchmarks alone start
local stacks of processes (tabletop/stack/launcher.py)."""
