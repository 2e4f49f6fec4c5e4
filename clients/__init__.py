"""Python SDK, terminal client, demo and load generator. Imports only the generated protos (tabletop.v1)."""
