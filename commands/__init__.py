"""The `tabletop` command: the composition root. It parses arguments and calls the entry point of the part asked
for (service, worker, clients, benchmarks), importing it lazily; it alone starts a local stack of processes."""
