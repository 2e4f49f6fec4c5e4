"""The archive in the manifests (docs/archive.md): the game service and the archive writer read the PostgreSQL URL
from the Secret, the writer is a hardened Deployment of its own that runs its subcommand and reaches Redis (and,
in dev, the in-cluster PostgreSQL, which nothing else but the service may reach); prod runs no PostgreSQL."""

from __future__ import annotations

import pytest

from tests.deploy.rendering import (
    OVERLAYS,
    config_data,
    of_kind,
    one,
    pod_labels,
    pod_spec,
    render,
    workloads,
)
from tests.deploy.test_network_policies import (
    GAME_SERVICE,
    MONITORING_NAMESPACE,
    OTHER_NAMESPACE,
    REDIS,
    STRANGER,
    from_namespace,
    here,
)

WRITER = {"app.kubernetes.io/name": "tabletop", "app.kubernetes.io/component": "archive-writer"}
POSTGRES = {"app.kubernetes.io/name": "postgres", "app.kubernetes.io/component": "postgres"}
DATABASE_URL = {"name": "tabletop-secrets", "key": "database-url"}


def env_of(deployment: dict) -> dict[str, dict]:
    (container,) = pod_spec(deployment)["containers"]
    return {entry["name"]: entry for entry in container.get("env", [])}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_service_and_the_writer_read_the_database_url_from_the_secret(overlay):
    objects = render(overlay)
    for name in ("tabletop-game-service", "tabletop-game-service-watch", "tabletop-archive-writer"):
        env = env_of(one(objects, "Deployment", name))
        ref = env["TABLETOP_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
        # dev generates the Secret (its name then carries a hash suffix); prod's is made out of band
        assert ref["key"] == "database-url" and ref["name"].startswith("tabletop-secrets"), name
        assert overlay == "dev" or ref == DATABASE_URL, name
    writer = one(objects, "Deployment", "tabletop-archive-writer")
    (container,) = pod_spec(writer)["containers"]
    assert container["args"] == ["archive-writer"] and "command" not in container
    assert pod_labels(writer).items() >= WRITER.items()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == ports["health"], probe
    # Its metrics: on the port the ConfigMap gives it, announced for annotation-based scraping, and behind a
    # Service whose port is named `metrics`, as the ServiceMonitor selects them.
    settings = config_data(objects)
    assert str(ports["metrics"]) == settings["TABLETOP_ARCHIVE_METRICS_PORT"]
    annotations = writer["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(ports["metrics"]) and annotations["prometheus.io/scrape"] == "true"
    service = one(objects, "Service", "tabletop-archive-writer")
    assert service["spec"]["selector"].items() <= pod_labels(writer).items()
    assert [(p["name"], p["targetPort"]) for p in service["spec"]["ports"]] == [("metrics", "metrics")]
    if overlay.startswith("prod"):
        assert env_of(writer)["TABLETOP_REDIS_URL"]["valueFrom"]["secretKeyRef"]["key"] == "redis-url"
        assert not [w for w in workloads(objects) if "postgres" in w["metadata"]["name"]]


def test_dev_runs_postgres_inside_that_only_the_writer_and_the_service_reach():
    objects = render("dev")
    postgres = one(objects, "StatefulSet", "postgres")
    assert pod_labels(postgres).items() >= POSTGRES.items()
    assert postgres["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    secret = next(s for s in of_kind(objects, "Secret") if s["metadata"]["name"].startswith("tabletop-secrets"))
    assert {"database-url", "postgres-password"} <= set(secret["data"])
    policies = of_kind(objects, "NetworkPolicy")
    assert here(policies, POSTGRES, 5432, WRITER) and here(policies, POSTGRES, 5432, GAME_SERVICE)
    assert not here(policies, POSTGRES, 5432, STRANGER)
    assert here(policies, REDIS, 6379, WRITER)
    assert from_namespace(policies, WRITER, 9103, MONITORING_NAMESPACE), "monitoring scrapes the writer"
    for port in (9103, 50071, 5432, 6379):  # its health port is for the kubelet's probes, which no policy governs
        assert not here(policies, WRITER, port, STRANGER) and not here(policies, WRITER, port, GAME_SERVICE)
        assert not from_namespace(policies, WRITER, port, OTHER_NAMESPACE)
    assert not from_namespace(policies, WRITER, 50071, MONITORING_NAMESPACE)
