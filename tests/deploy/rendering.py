"""Render the kustomize overlays with the real `kubectl kustomize` and walk the objects they produce."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
OVERLAYS = ("dev", "prod", "prod-tls")  # prod-tls: prod + components/tls
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}

# The two processes of the Tabletop image, by Deployment: the `tabletop` subcommand it runs, the gRPC health
# service name its readiness probe asks for (docs/config.md, "Health checking") and the variables of its ports
# (health_var: the plaintext health-only port that the probes ask instead when the gRPC port serves TLS).
GAME_SERVICE = {"args": ["serve"], "health_service": "tabletop.v1.GameService", "port_var": "TABLETOP_GRPC_PORT",
                "metrics_var": "TABLETOP_METRICS_PORT", "health_var": "TABLETOP_HEALTH_PORT"}
TABLETOP_PROCESSES = {
    "tabletop-game-service": GAME_SERVICE,
    "tabletop-game-service-watch": GAME_SERVICE,  # the watch tier: the same process, WatchGame streams routed to it
    "tabletop-ai-worker": {"args": ["ai-worker"], "health_service": "tabletop.v1.AIService",
                           "port_var": "TABLETOP_AI_GRPC_PORT", "metrics_var": "TABLETOP_AI_METRICS_PORT",
                           "health_var": "TABLETOP_AI_HEALTH_PORT"},
}

# The gRPC-Web gateway (`tabletop gateway`): the third Deployment of the image, HTTP rather than gRPC.
GATEWAY = "tabletop-gateway"
DEPLOYMENTS = (*TABLETOP_PROCESSES, GATEWAY)


def kubectl() -> str:
    found = shutil.which("kubectl") or ("/usr/bin/kubectl" if Path("/usr/bin/kubectl").exists() else None)
    if found is None:
        pytest.fail("kubectl is not on PATH: the deploy tests render the manifests with `kubectl kustomize` "
                    "(install kubectl, e.g. Debian's kubernetes-client, and run again)", pytrace=False)
    return found


@functools.cache
def _render_text(overlay: str) -> str:
    done = subprocess.run([kubectl(), "kustomize", str(DEPLOY / "k8s" / "overlays" / overlay)],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        pytest.fail(f"kubectl kustomize {overlay} failed:\n{done.stderr}", pytrace=False)
    return done.stdout


def render(overlay: str) -> list[dict]:
    """Return the objects of one overlay as fresh dicts (callers may mutate them)."""
    return [obj for obj in yaml.safe_load_all(_render_text(overlay)) if obj]


def name_of(obj: dict) -> str:
    return f"{obj['kind']}/{obj['metadata']['name']}"


def of_kind(objects: list[dict], kind: str) -> list[dict]:
    return [obj for obj in objects if obj["kind"] == kind]


def one(objects: list[dict], kind: str, name: str) -> dict:
    found = [obj for obj in of_kind(objects, kind) if obj["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind}/{name}, found {len(found)}"
    return found[0]


def pod_spec(workload: dict) -> dict:
    if workload["kind"] == "CronJob":
        return workload["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return workload["spec"]["template"]["spec"]


def pod_labels(workload: dict) -> dict:
    template = (workload["spec"]["jobTemplate"]["spec"] if workload["kind"] == "CronJob" else workload["spec"])
    return template["template"]["metadata"].get("labels", {})


def workloads(objects: list[dict]) -> list[dict]:
    return [obj for obj in objects if obj["kind"] in WORKLOAD_KINDS]


def containers(workload: dict) -> Iterator[tuple[str, dict]]:
    """Yield (a readable where, container) for every container and init container of a workload."""
    spec = pod_spec(workload)
    for field in ("initContainers", "containers"):
        for container in spec.get(field, []):
            yield f"{name_of(workload)}/{container['name']}", container


def effective_security_context(workload: dict, container: dict) -> dict:
    """Merge the pod's securityContext under the container's, as the kubelet does for shared fields."""
    pod_level = pod_spec(workload).get("securityContext", {})
    shared = ("runAsNonRoot", "runAsUser", "runAsGroup", "seccompProfile", "seLinuxOptions")
    merged = {key: pod_level[key] for key in shared if key in pod_level}
    merged.update(container.get("securityContext", {}))
    return merged


def selector_matches(selector: dict, labels: dict) -> bool:
    """Tell whether a LabelSelector (matchLabels and matchExpressions) selects these labels."""
    for key, value in selector.get("matchLabels", {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions", []):
        key, op, values = expr["key"], expr["operator"], expr.get("values", [])
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


def config_data(objects: list[dict]) -> dict[str, str]:
    """Return the settings of the tabletop ConfigMap (the generated name carries a hash suffix)."""
    maps = [obj for obj in of_kind(objects, "ConfigMap") if obj["metadata"]["name"].startswith("tabletop-config")]
    assert len(maps) == 1, f"expected one tabletop-config ConfigMap, found {len(maps)}"
    return maps[0]["data"]


def image_problem(image: str) -> str | None:
    """Say what is wrong with an image reference, or None when it is pinned to a tag or digest."""
    if "@sha256:" in image:
        return None
    last_part = image.rsplit("/", 1)[-1]
    if ":" not in last_part:
        return f"image {image!r} has no tag (it would mean latest)"
    if last_part.rsplit(":", 1)[1] == "latest":
        return f"image {image!r} uses the latest tag"
    return None


def documented_env_vars() -> set[str]:
    """Return the variable names of the table in docs/config.md, the contract between the parts."""
    text = (REPO / "docs" / "config.md").read_text()
    return set(re.findall(r"^\| `(TABLETOP_[A-Z0-9_]+)` \|", text, flags=re.MULTILINE))
