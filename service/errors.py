"""Errors of the game service: a gRPC status code plus a google.rpc.ErrorInfo reason (domain tabletop.dev)."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

DOMAIN = "tabletop.dev"
# A status message travels twice in the trailers (grpc-message, percent-encoded, and inside the details), and
# gRPC drops a call whose trailers pass 8 KiB: a message that quotes a long bad input must stay short.
MAX_MESSAGE_BYTES = 1024


def bounded(message: str) -> str:
    """`message` as valid UTF-8 (a lone surrogate, which a JSON escape can smuggle into a caller's text, becomes
    its `\\udxxx` escape) of at most MAX_MESSAGE_BYTES."""
    raw = message.encode(errors="backslashreplace")
    if len(raw) <= MAX_MESSAGE_BYTES:
        return raw.decode()
    return raw[: MAX_MESSAGE_BYTES - 3].decode(errors="ignore") + "..."


class ServiceError(Exception):
    """A failure the caller should see: `code`, an UPPER_SNAKE `reason`, a message and optional metadata; with
    `retry_delay` (seconds) the status also carries a google.rpc.RetryInfo (a quota: when to try again)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, *, retry_delay: float | None = None,
                 **metadata: str):
        message = bounded(message)
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.retry_delay = retry_delay
        self.metadata = {k: bounded(str(v)) for k, v in metadata.items()}

    def to_status(self) -> grpc.Status:
        info = error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN, metadata=self.metadata)
        detail = any_pb2.Any()
        detail.Pack(info)
        details = [detail]
        if self.retry_delay is not None:
            delay = duration_pb2.Duration()
            delay.FromMilliseconds(max(0, round(self.retry_delay * 1000)))
            retry = any_pb2.Any()
            retry.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
            details.append(retry)
        status = status_pb2.Status(code=self.code.value[0], message=self.message, details=details)
        return rpc_status.to_status(status)


def invalid(reason: str, message: str, **metadata: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, reason, message, **metadata)


def precondition(reason: str, message: str, **metadata: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message, **metadata)


def unauthenticated(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, reason, message)


def denied(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, reason, message)


def game_not_found(game_id: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", f"no game with id {game_id!r}", game_id=game_id)


def version_mismatch(expected: int, current: int) -> ServiceError:
    if expected > current:
        why = f"the game is at version {current}: it has not reached version {expected}"
    else:
        why = f"the game changed in a way your seat sees since version {expected} (it is at version {current})"
    return ServiceError(
        grpc.StatusCode.ABORTED,
        "VERSION_MISMATCH",
        f"{why}: fetch the state and decide again",
        expected_version=str(expected),
        current_version=str(current),
    )


def contended() -> ServiceError:
    return ServiceError(grpc.StatusCode.ABORTED, "CONTENDED", "the game changed too often meanwhile: retry")


def redis_unavailable(detail: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAVAILABLE, "REDIS_UNAVAILABLE", f"the game store is unreachable: {detail}")


def store_full() -> ServiceError:
    """Redis reached its `maxmemory` (it runs with `noeviction`, so it refuses writes rather than drop games)."""
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "STORE_FULL",
                        "the game store is full (Redis reached its maxmemory): nothing was written; "
                        "retry later, once finished games have expired or the store has grown")


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo detail of a failed call (for clients and tests), or None."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Is(info.DESCRIPTOR) and detail.Unpack(info):
            return info
    return None


def retry_delay(error: grpc.RpcError) -> float | None:
    """The RetryInfo delay of a failed call in seconds (a quota: when to try again), or None."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.RetryInfo()
        if detail.Is(info.DESCRIPTOR) and detail.Unpack(info):
            return info.retry_delay.ToMilliseconds() / 1000
    return None
