"""Server reflection under both names clients ask for: `grpc.reflection.v1` (grpcurl and current tools) and
`grpc.reflection.v1alpha` (older ones). grpcio-reflection serves only v1alpha; the v1 messages are the same on the
wire (only the package differs), so the same servicer answers both."""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2

V1 = "grpc.reflection.v1.ServerReflection"


def enable(service_names: Iterable[str], server) -> None:
    """Reflection on `server` (a grpc.Server or a grpc.aio.Server) for the given services, v1 and v1alpha."""
    names = (*service_names, reflection.SERVICE_NAME, V1)
    if isinstance(server, grpc.aio.Server):
        servicer = reflection.aio.ReflectionServicer(names)
    else:
        servicer = reflection.ReflectionServicer(names)
    reflection.enable_server_reflection(names, server)  # v1alpha, under its own name
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(V1, {"ServerReflectionInfo": v1}),))
