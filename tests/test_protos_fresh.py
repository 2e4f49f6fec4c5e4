"""The generated code in tabletop/v1 is what `make protos` makes from protos/ now."""

from commands import protogen


def test_generated_code_is_up_to_date():
    stale = protogen.check()
    assert not stale, f"run `make protos`: stale generated files {stale}"
