"""protos/google/rpc holds the standard google.rpc.Status and error details (ErrorInfo, RetryInfo, ...) so that a
client in any language decodes `grpc-status-details-bin` from our .proto files alone; they are the very files of
googleapis-common-protos (the package grpcio-status brings), not a hand-written schema."""

from pathlib import Path

import google.rpc
import pytest

SHIPPED = Path(__file__).resolve().parents[1] / "protos" / "google" / "rpc"
PACKAGE = Path(next(iter(google.rpc.__path__)))


@pytest.mark.parametrize("name", ["status.proto", "error_details.proto"])
def test_the_google_rpc_protos_are_the_standard_ones(name):
    assert (SHIPPED / name).read_text() == (PACKAGE / name).read_text()
