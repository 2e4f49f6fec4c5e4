"""The browser path: a gRPC-Web gateway in front of the native gRPC game service (docs/frontends.md)."""
