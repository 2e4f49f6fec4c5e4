"""The two in-cluster setups (docs/deploy.md, "TLS"): plaintext by default, said explicitly so that the worker
may send its credential; TLS on every gRPC hop with overlays/prod-tls (components/tls), from the mounted
kubernetes.io/tls Secret `tabletop-tls`. And in each, the worker starts: its transport check passes."""

from __future__ import annotations

import posixpath

import pytest
import yaml

from ai.worker import check_service_transport
from ai.worker_config import WorkerConfig
from tabletop.settings import flag
from tests.deploy.rendering import DEPLOY, OVERLAYS, TABLETOP_PROCESSES, config_data, one, pod_spec, render

TLS_FILES = {"TABLETOP_TLS_CERT_FILE": "tls.crt", "TABLETOP_TLS_KEY_FILE": "tls.key",
             "TABLETOP_TLS_CA_FILE": "ca.crt"}


def worker_config(settings: dict[str, str]) -> WorkerConfig:
    """The worker's view of the settings, without reading the files (they exist only in a pod)."""
    return WorkerConfig(service_target=settings["TABLETOP_SERVICE_TARGET"],
                        service_tls=flag(settings, "SERVICE_TLS"), allow_insecure=flag(settings, "ALLOW_INSECURE"))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_worker_may_reach_the_service_in_every_overlay(overlay):
    check_service_transport(worker_config(config_data(render(overlay))))


def test_the_worker_may_reach_the_service_in_compose():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    env = compose["services"]["worker"]["environment"]
    check_service_transport(worker_config({k: str(v).lower() if isinstance(v, bool) else str(v)
                                           for k, v in env.items()}))


@pytest.mark.parametrize("overlay", [o for o in OVERLAYS if not o.endswith("-tls")])
def test_the_plain_setup_is_the_default_and_says_so(overlay):
    objects = render(overlay)
    settings = config_data(objects)
    assert not any(key in settings for key in (*TLS_FILES, "TABLETOP_SERVICE_TLS", "TABLETOP_AI_TLS"))
    assert flag(settings, "ALLOW_INSECURE"), "plaintext in-cluster is an explicit choice"
    for name in TABLETOP_PROCESSES:
        volumes = pod_spec(one(objects, "Deployment", name)).get("volumes", [])
        assert not [v for v in volumes if v.get("secret", {}).get("secretName") == "tabletop-tls"]


def test_the_tls_overlay_serves_and_calls_with_tls_from_the_mounted_secret():
    objects = render("prod-tls")
    settings = config_data(objects)
    assert flag(settings, "SERVICE_TLS") and flag(settings, "AI_TLS")
    assert not flag(settings, "ALLOW_INSECURE"), "with TLS on, nothing may fall back to plaintext"
    directories = {posixpath.dirname(settings[variable]) for variable in TLS_FILES}
    assert len(directories) == 1, "the three files come from one Secret, mounted in one directory"
    (directory,) = directories
    assert {posixpath.basename(settings[variable]) for variable in TLS_FILES} == set(TLS_FILES.values())
    for name in TABLETOP_PROCESSES:
        spec = pod_spec(one(objects, "Deployment", name))
        (container,) = spec["containers"]
        (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == directory]
        assert mount.get("readOnly") is True, name
        (volume,) = [v for v in spec["volumes"] if v["name"] == mount["name"]]
        secret = volume["secret"]
        assert secret["secretName"] == "tabletop-tls", name
        assert not secret.get("optional"), f"{name}: without its certificate the pod must wait, not run plaintext"
        assert secret.get("defaultMode", 0o644) & 0o007 == 0, f"{name}: the private key is not world-readable"


def test_the_tls_overlay_keeps_the_rest_of_prod():
    plain, tls = render("prod"), render("prod-tls")
    kinds = sorted((o["kind"], o["metadata"]["name"].rsplit("-", 1)[0] if o["kind"] == "ConfigMap"
                    else o["metadata"]["name"]) for o in plain)
    assert kinds == sorted((o["kind"], o["metadata"]["name"].rsplit("-", 1)[0] if o["kind"] == "ConfigMap"
                            else o["metadata"]["name"]) for o in tls)
    changed = {k for k, v in config_data(tls).items() if config_data(plain).get(k) != v}
    assert set(changed) == {*TLS_FILES, "TABLETOP_SERVICE_TLS", "TABLETOP_AI_TLS", "TABLETOP_ALLOW_INSECURE",
                            "TABLETOP_HEALTH_PORT", "TABLETOP_AI_HEALTH_PORT"}
