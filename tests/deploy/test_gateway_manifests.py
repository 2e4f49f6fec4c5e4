"""The browser path on Kubernetes: the gateway Deployment runs `tabletop gateway` on the configured ports with
HTTP probes, its Service and the Ingress reach it, the Ingress lets WatchGame stream (no buffering, long
timeouts), and the gateway and the game service share the forward secret from one Secret key."""

from __future__ import annotations

import pytest

from gateway.config import parse_origins
from tests.deploy.rendering import GATEWAY, OVERLAYS, config_data, of_kind, one, pod_spec, render


def env_sources(container: dict) -> dict[str, dict]:
    return {item["name"]: item for item in container.get("env", [])}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_gateway_runs_its_subcommand_on_the_configured_ports(overlay):
    objects = render(overlay)
    settings = config_data(objects)
    deployment = one(objects, "Deployment", GATEWAY)
    (container,) = pod_spec(deployment)["containers"]
    assert container["args"] == ["gateway"] and "command" not in container
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert ports == {"http": int(settings["TABLETOP_GATEWAY_PORT"]),
                     "metrics": int(settings["TABLETOP_GATEWAY_METRICS_PORT"])}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 30
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == settings["TABLETOP_GATEWAY_METRICS_PORT"]
    drain = int(settings["TABLETOP_SHUTDOWN_GRACE_SECONDS"])
    pause = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
    assert pod_spec(deployment)["terminationGracePeriodSeconds"] >= pause + drain + 5
    host, port = settings["TABLETOP_GATEWAY_UPSTREAM"].rsplit(":", 1)
    assert int(port) in [p["port"] for p in one(objects, "Service", host)["spec"]["ports"]]
    assert "TABLETOP_REDIS_URL" not in env_sources(container), "the gateway never touches Redis"
    parse_origins(settings.get("TABLETOP_GATEWAY_ALLOWED_ORIGINS", ""))  # a valid list, never "*"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_ingress_sends_browsers_to_the_gateway_and_lets_streams_flow(overlay):
    objects = render(overlay)
    (ingress,) = of_kind(objects, "Ingress")
    service = one(objects, "Service", GATEWAY)
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == GATEWAY
            assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    annotations = ingress["metadata"]["annotations"]
    assert annotations["nginx.ingress.kubernetes.io/proxy-buffering"] == "off", "WatchGame updates must not wait"
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600, "a game lasts long"
    if overlay == "prod":
        assert ingress["spec"]["tls"] and all(rule.get("host") for rule in ingress["spec"]["rules"])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_gateway_and_service_share_the_forward_secret(overlay):
    objects = render(overlay)
    refs = []
    for name in (GATEWAY, "tabletop-game-service"):
        (container,) = pod_spec(one(objects, "Deployment", name))["containers"]
        refs.append(env_sources(container)["TABLETOP_GATEWAY_FORWARD_SECRET"]["valueFrom"]["secretKeyRef"])
    assert refs[0] == refs[1] and refs[0]["key"] == "gateway-forward-secret"
    assert "TABLETOP_GATEWAY_FORWARD_SECRET" not in config_data(objects), "no secret in a ConfigMap"


def test_with_tls_the_gateway_calls_the_service_with_tls_trusting_the_mounted_ca():
    objects = render("prod-tls")
    settings = config_data(objects)
    assert settings["TABLETOP_SERVICE_TLS"] == "true" and settings["TABLETOP_ALLOW_INSECURE"] == "false"
    spec = pod_spec(one(objects, "Deployment", GATEWAY))
    (container,) = spec["containers"]
    ca_dir = settings["TABLETOP_TLS_CA_FILE"].rsplit("/", 1)[0]
    mount = next(m for m in container["volumeMounts"] if m["mountPath"] == ca_dir)
    volume = next(v for v in spec["volumes"] if v["name"] == mount["name"])
    assert volume["secret"]["secretName"] == "tabletop-tls" and mount["readOnly"]
