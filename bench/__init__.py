"""Benchmarks, load generators, their floors, the chaos run and the arena: a room of their own.

They may import any part of Tabletop (they drive the service as clients, start local stacks, search with the AI);
no product package (games, tabletop, service, ai, clients, gateway) imports them, and their gRPC service
(tabletop.bench.v1, generated into bench/v1) is no part of the public API. `tabletop bench KIND` and
`tabletop arena` reach them lazily from the command line."""
