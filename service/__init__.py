"""The gRPC game service: protos <-> engine, the Redis store, auth, metrics. Imports games and tabletop.v1 only."""
