"""Python SDK, terminal client and demo. Imports only the generated protos (tabletop.v1)."""
