"""Every overlay renders with `kubectl kustomize` and every object it yields is valid Kubernetes, checked offline
against the schemas that the kubernetes-validate package bundles."""

from __future__ import annotations

import subprocess

import kubernetes_validate
import pytest

from tests.deploy.rendering import OVERLAYS, kubectl, name_of, render

# The oldest Kubernetes the manifests promise to work on (native gRPC probes are GA since 1.27), and the newest
# whose schemas are at hand.
KUBERNETES_VERSIONS = ("1.29.0", kubernetes_validate.latest_version())

# Custom resources have no bundled schema; each is checked by hand in test_custom_resources_are_well_formed
# (the PrometheusRule in test_prometheus_rules.py).
CUSTOM_RESOURCES = {("monitoring.coreos.com/v1", "ServiceMonitor"), ("monitoring.coreos.com/v1", "PrometheusRule")}


def test_kubectl_is_there():
    done = subprocess.run([kubectl(), "version", "--client"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "Kustomize Version" in done.stdout


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_object_matches_the_kubernetes_schema(overlay):
    problems = []
    for obj in render(overlay):
        if (obj["apiVersion"], obj["kind"]) in CUSTOM_RESOURCES:
            continue
        for version in KUBERNETES_VERSIONS:
            try:
                kubernetes_validate.validate(obj, version, strict=True)
            except kubernetes_validate.SchemaNotFoundError:
                problems.append(f"{name_of(obj)}: no schema for {obj['apiVersion']} in Kubernetes {version}")
            except kubernetes_validate.ValidationError as error:
                where = ".".join(map(str, error.path))
                problems.append(f"{name_of(obj)} (Kubernetes {version}) at {where}: {error.message}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_object_is_namespaced_into_the_overlay(overlay):
    objects = render(overlay)
    namespaces = [obj["metadata"]["name"] for obj in objects if obj["kind"] == "Namespace"]
    assert len(namespaces) == 1, "each overlay brings its own Namespace"
    others = [obj for obj in objects if obj["kind"] != "Namespace"]
    strays = [name_of(obj) for obj in others if obj["metadata"].get("namespace") != namespaces[0]]
    assert not strays, f"objects outside namespace {namespaces[0]}: {strays}"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_names_are_unique_per_kind(overlay):
    names = [name_of(obj) for obj in render(overlay)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_custom_resources_are_well_formed(overlay):
    """Check a ServiceMonitor by hand: the fields the Prometheus Operator needs, each of the right type."""
    for monitor in (obj for obj in render(overlay) if obj["kind"] == "ServiceMonitor"):
        assert set(monitor) <= {"apiVersion", "kind", "metadata", "spec"}
        spec = monitor["spec"]
        assert set(spec) <= {"selector", "endpoints", "namespaceSelector", "jobLabel", "targetLabels",
                             "podTargetLabels", "sampleLimit"}, set(spec)
        assert isinstance(spec["selector"], dict) and spec["selector"], "an empty selector scrapes everything"
        assert set(spec["selector"]) <= {"matchLabels", "matchExpressions"}
        for expr in spec["selector"].get("matchExpressions", []):
            assert expr["operator"] in {"In", "NotIn", "Exists", "DoesNotExist"}
            assert isinstance(expr.get("values", []), list)
        assert spec["endpoints"], "a ServiceMonitor without endpoints scrapes nothing"
        for endpoint in spec["endpoints"]:
            assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout", "scheme", "relabelings",
                                     "metricRelabelings", "honorLabels"}, set(endpoint)
            assert isinstance(endpoint["port"], str), "endpoints name a Service port, not a number"
            assert endpoint.get("path", "/metrics").startswith("/")
            for duration in ("interval", "scrapeTimeout"):
                if duration in endpoint:
                    assert endpoint[duration][:-1].isdigit() and endpoint[duration][-1] in "sm"
