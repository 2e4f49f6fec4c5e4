"""A local stack of real processes (Redis, the game service, the AI worker, the gateway) for `tabletop run`, the
terminal client without a target, the benchmarks and the tests. It names each part by its command; it imports none."""
