"""What each overlay deploys: dev is one of everything with Redis inside, prod is autoscaled (3+ replicas) with the
Redis URL and the AI token from a Secret; Services, autoscalers and budgets point at real pods; the settings
agree with docs/config.md."""

from __future__ import annotations

import pytest

from tests.deploy.rendering import (
    DEPLOYMENTS,
    OVERLAYS,
    TABLETOP_PROCESSES,
    config_data,
    documented_env_vars,
    name_of,
    of_kind,
    one,
    pod_labels,
    pod_spec,
    render,
    selector_matches,
    workloads,
)


def env_sources(container: dict) -> dict[str, dict]:
    return {entry["name"]: entry for entry in container.get("env", [])}


def mebibytes(size: str) -> int:
    """A Redis memory size ("256mb", "1gb") in MiB (Redis reads mb and gb as powers of 1024)."""
    number, unit = size[:-2], size[-2:].lower()
    return int(number) * {"mb": 1, "gb": 1024}[unit]


def test_dev_runs_one_of_each_with_redis_inside():
    objects = render("dev")
    for name in DEPLOYMENTS:
        assert one(objects, "Deployment", name)["spec"]["replicas"] == 1
    assert not of_kind(objects, "HorizontalPodAutoscaler")
    redis = one(objects, "StatefulSet", "redis")
    assert redis["spec"]["replicas"] == 1
    (container,) = pod_spec(redis)["containers"]
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes", "Redis keeps an append-only file"
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction", "a full Redis refuses, never drops games"
    limit = container["resources"]["limits"]["memory"]
    assert limit.endswith("Mi") and 0 < mebibytes(args[args.index("--maxmemory") + 1]) <= int(limit[:-2]) * 3 // 4
    claim = redis["spec"]["volumeClaimTemplates"][0]
    assert {"name": claim["metadata"]["name"], "mountPath": "/data"} in container["volumeMounts"]
    assert redis["spec"]["serviceName"] == one(objects, "Service", "redis")["metadata"]["name"]
    assert config_data(objects)["TABLETOP_REDIS_URL"] == "redis://redis:6379/0"


def test_prod_has_no_redis_and_reads_its_url_and_token_from_a_secret():
    objects = render("prod")
    assert not [w for w in workloads(objects) if "redis" in w["metadata"]["name"]]
    assert not of_kind(objects, "Secret"), "production secrets are created out of band, never kept in git"
    assert "TABLETOP_REDIS_URL" not in config_data(objects)
    for name in TABLETOP_PROCESSES:
        deployment = one(objects, "Deployment", name)
        assert "replicas" not in deployment["spec"], "the HPA owns the replica count; apply must not reset it"
        (container,) = pod_spec(deployment)["containers"]
        env = env_sources(container)
        for variable, key in (("TABLETOP_REDIS_URL", "redis-url"), ("TABLETOP_AI_SERVICE_TOKEN", "ai-service-token")):
            assert env[variable]["valueFrom"]["secretKeyRef"] == {"name": "tabletop-secrets", "key": key}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_ai_token_is_a_secret_and_settings_a_configmap(overlay):
    objects = render(overlay)
    config_name = next(c["metadata"]["name"] for c in of_kind(objects, "ConfigMap"))
    secret_names = {s["metadata"]["name"] for s in of_kind(objects, "Secret")}
    for name in TABLETOP_PROCESSES:
        (container,) = pod_spec(one(objects, "Deployment", name))["containers"]
        # Settings from the ConfigMap; the game service also reads its optional identity keys (TABLETOP_JWT_*,
        # docs/api.md "Player identity") from the Secret tabletop-identity, which only an operator creates.
        identity = [{"secretRef": {"name": "tabletop-identity", "optional": True}}] if "game-service" in name else []
        assert container["envFrom"] == [{"configMapRef": {"name": config_name}}, *identity]
        if identity:  # TABLETOP_JWT_JWKS_FILE=/etc/tabletop/identity/jwks.json: the Secret's key jwks.json
            mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
            volumes = {v["name"]: v for v in pod_spec(one(objects, "Deployment", name))["volumes"]}
            assert mounts["identity"] == "/etc/tabletop/identity"
            assert volumes["identity"]["secret"]["secretName"] == "tabletop-identity"
            assert volumes["identity"]["secret"]["optional"] is True
        token = env_sources(container)["TABLETOP_AI_SERVICE_TOKEN"]["valueFrom"]["secretKeyRef"]
        assert token["key"] == "ai-service-token"
        if overlay == "dev":
            assert token["name"] in secret_names, "the generated dev Secret is the one referenced"
    assert not any(key.endswith("TOKEN") for key in config_data(objects)), "no token in a ConfigMap"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_setting_is_a_documented_variable(overlay):
    objects = render(overlay)
    documented = documented_env_vars()
    used = set(config_data(objects))
    for workload in workloads(objects):
        for container in pod_spec(workload)["containers"]:
            used |= {name for name in env_sources(container) if name.startswith("TABLETOP_")}
    assert used <= documented, f"not in docs/config.md: {sorted(used - documented)}"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_services_select_pods_and_name_their_ports(overlay):
    objects = render(overlay)
    for service in of_kind(objects, "Service"):
        selected = [w for w in workloads(objects) if selector_matches(
            {"matchLabels": service["spec"]["selector"]}, pod_labels(w))]
        assert len(selected) == 1, f"{name_of(service)} selects {len(selected)} workloads"
        container_ports = {p["name"] for c in pod_spec(selected[0])["containers"] for p in c["ports"]}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in container_ports, f"{name_of(service)}: {port['targetPort']}"
    settings = config_data(objects)
    for variable, service in (("TABLETOP_AI_TARGET", "tabletop-ai-worker"),
                              ("TABLETOP_SERVICE_TARGET", "tabletop-game-service")):
        host, port = settings[variable].rsplit(":", 1)
        ports = [p["port"] for p in one(objects, "Service", service)["spec"]["ports"]]
        assert host == service and int(port) in ports, variable


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_budgets_and_autoscalers_point_at_the_deployments(overlay):
    objects = render(overlay)
    for budget in of_kind(objects, "PodDisruptionBudget"):
        selected = [w for w in workloads(objects) if selector_matches(budget["spec"]["selector"], pod_labels(w))]
        assert len(selected) == 1, name_of(budget)
        assert budget["spec"].get("maxUnavailable") == 1, "one pod at a time, at any replica count"
    budgeted = {w["metadata"]["name"] for b in of_kind(objects, "PodDisruptionBudget")
                for w in workloads(objects) if selector_matches(b["spec"]["selector"], pod_labels(w))}
    assert budgeted >= set(DEPLOYMENTS)
    for autoscaler in of_kind(objects, "HorizontalPodAutoscaler"):
        assert autoscaler["apiVersion"] == "autoscaling/v2"
        target = autoscaler["spec"]["scaleTargetRef"]
        one(objects, target["kind"], target["name"])
        spec = autoscaler["spec"]
        assert 2 <= spec["minReplicas"] <= spec["maxReplicas"]
        resources = [m["resource"]["name"] for m in spec["metrics"] if m["type"] == "Resource"]
        assert "cpu" in resources
    if overlay.startswith("prod"):
        scaled = {a["spec"]["scaleTargetRef"]["name"] for a in of_kind(objects, "HorizontalPodAutoscaler")}
        assert scaled == set(DEPLOYMENTS)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_pods_announce_their_metrics(overlay):
    objects = render(overlay)
    settings = config_data(objects)
    writer = {"metrics_var": "TABLETOP_ARCHIVE_METRICS_PORT"}
    for name, process in {**TABLETOP_PROCESSES, "tabletop-archive-writer": writer}.items():
        deployment = one(objects, "Deployment", name)
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/scrape"] == "true"
        assert annotations["prometheus.io/port"] == settings[process["metrics_var"]]
        assert annotations["prometheus.io/path"] == "/metrics"


def test_prod_service_monitor_scrapes_every_process():
    objects = render("prod")
    (monitor,) = of_kind(objects, "ServiceMonitor")
    scraped = [s for s in of_kind(objects, "Service") if selector_matches(monitor["spec"]["selector"],
                                                                         s["metadata"]["labels"])]
    # Every process that serves metrics: the archive writer too (a headless Service for its metrics alone).
    assert {s["metadata"]["name"] for s in scraped} == {*DEPLOYMENTS, "tabletop-archive-writer"}
    for endpoint in monitor["spec"]["endpoints"]:
        for service in scraped:
            assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}
