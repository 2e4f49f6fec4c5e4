"""Who may talk to whom: only the game service and the worker reach Redis, only the game service reaches the
worker's AIService, anyone reaches the game API, and only the monitoring namespace scrapes metrics."""

from __future__ import annotations

import pytest

from tests.deploy.rendering import OVERLAYS, of_kind, pod_labels, render, selector_matches, workloads

GAME_SERVICE = {"app.kubernetes.io/name": "tabletop", "app.kubernetes.io/component": "game-service"}
AI_WORKER = {"app.kubernetes.io/name": "tabletop", "app.kubernetes.io/component": "ai-worker"}
ARCHIVE_WRITER = {"app.kubernetes.io/name": "tabletop", "app.kubernetes.io/component": "archive-writer"}
REDIS = {"app.kubernetes.io/name": "redis", "app.kubernetes.io/component": "redis"}
STRANGER = {"app": "something-else"}
MONITORING_NAMESPACE = {"kubernetes.io/metadata.name": "monitoring"}
OTHER_NAMESPACE = {"kubernetes.io/metadata.name": "somewhere-else"}


def admits(policies: list[dict], target: dict, port: int, source: dict, same_namespace: bool,
           source_namespace: dict) -> bool:
    """Tell whether ingress NetworkPolicies let a pod with labels `source` reach `target` on `port`."""
    selecting = [p for p in policies if selector_matches(p["spec"]["podSelector"], target)
                 and "Ingress" in p["spec"].get("policyTypes", ["Ingress"])]
    if not selecting:
        return True  # a pod no policy selects is open; test_every_pod_is_selected_by_a_policy forbids it
    for policy in selecting:
        for rule in policy["spec"].get("ingress", []):
            ports = [p["port"] for p in rule.get("ports", [])]
            if ports and port not in ports:
                continue
            peers = rule.get("from")
            if not peers:
                return True
            for peer in peers:
                pod_ok = "podSelector" not in peer or selector_matches(peer["podSelector"], source)
                if "namespaceSelector" in peer:
                    namespace_ok = selector_matches(peer["namespaceSelector"], source_namespace)
                else:
                    namespace_ok = same_namespace
                if "ipBlock" in peer:
                    continue  # no pod-to-pod rule here relies on addresses
                if pod_ok and namespace_ok:
                    return True
    return False


def policies_of(overlay: str) -> list[dict]:
    return of_kind(render(overlay), "NetworkPolicy")


def here(policies, target, port, source):
    return admits(policies, target, port, source, same_namespace=True, source_namespace={})


def from_namespace(policies, target, port, namespace):
    return admits(policies, target, port, STRANGER, same_namespace=False, source_namespace=namespace)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_is_selected_by_a_policy(overlay):
    objects = render(overlay)
    policies = of_kind(objects, "NetworkPolicy")
    assert any(p["spec"]["podSelector"] == {} and not p["spec"].get("ingress") for p in policies), \
        "a default-deny ingress policy for the namespace"
    for workload in workloads(objects):
        specific = [p for p in policies if p["spec"]["podSelector"]
                    and selector_matches(p["spec"]["podSelector"], pod_labels(workload))]
        assert specific, f"{workload['metadata']['name']}: no NetworkPolicy of its own"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_clients_reach_the_game_api_from_anywhere(overlay):
    policies = policies_of(overlay)
    assert here(policies, GAME_SERVICE, 50051, STRANGER)
    assert from_namespace(policies, GAME_SERVICE, 50051, OTHER_NAMESPACE)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_the_game_service_reaches_the_ai_service(overlay):
    policies = policies_of(overlay)
    assert here(policies, AI_WORKER, 50061, GAME_SERVICE)
    assert not here(policies, AI_WORKER, 50061, STRANGER)
    assert not here(policies, AI_WORKER, 50061, AI_WORKER)
    assert not from_namespace(policies, AI_WORKER, 50061, OTHER_NAMESPACE)
    assert not from_namespace(policies, AI_WORKER, 50061, MONITORING_NAMESPACE)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_monitoring_scrapes_metrics(overlay):
    policies = policies_of(overlay)
    for target, port in ((GAME_SERVICE, 9100), (AI_WORKER, 9101), (ARCHIVE_WRITER, 9103)):
        assert from_namespace(policies, target, port, MONITORING_NAMESPACE)
        assert not from_namespace(policies, target, port, OTHER_NAMESPACE)
        assert not here(policies, target, port, STRANGER)


def test_only_the_game_service_and_the_worker_reach_redis():
    policies = policies_of("dev")
    assert here(policies, REDIS, 6379, GAME_SERVICE)
    assert here(policies, REDIS, 6379, AI_WORKER)
    assert not here(policies, REDIS, 6379, STRANGER)
    assert not from_namespace(policies, REDIS, 6379, OTHER_NAMESPACE)
    assert not from_namespace(policies, REDIS, 6379, MONITORING_NAMESPACE)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_policy_selectors_match_the_pods_they_mean(overlay):
    objects = render(overlay)
    labels = {w["metadata"]["name"]: pod_labels(w) for w in workloads(objects)}
    assert labels["tabletop-game-service"].items() >= GAME_SERVICE.items()
    assert labels["tabletop-ai-worker"].items() >= AI_WORKER.items()
    if overlay == "dev":
        assert labels["redis"].items() >= REDIS.items()
