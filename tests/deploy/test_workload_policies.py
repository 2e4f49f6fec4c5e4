"""Every container of every workload in every overlay follows the house rules: native gRPC probes against the
health service, requests and limits, a locked-down security context, a pinned image."""

from __future__ import annotations

import pytest

from tests.deploy.rendering import (
    OVERLAYS,
    TABLETOP_PROCESSES,
    config_data,
    containers,
    effective_security_context,
    image_problem,
    name_of,
    of_kind,
    pod_spec,
    render,
    workloads,
)

PRESTOP_MARGIN_SECONDS = 5


def container_problems(workload: dict) -> list[str]:
    problems = []
    spec = pod_spec(workload)
    volumes = {volume["name"]: volume for volume in spec.get("volumes", [])}
    for where, container in containers(workload):
        for probe in ("readinessProbe", "livenessProbe"):
            if probe not in container:
                problems.append(f"{where}: no {probe}")
        for kind in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                if resource not in container.get("resources", {}).get(kind, {}):
                    problems.append(f"{where}: no resources.{kind}.{resource}")
        context = effective_security_context(workload, container)
        expected = {"runAsNonRoot": True, "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False}
        for field, value in expected.items():
            if context.get(field) is not value:
                problems.append(f"{where}: securityContext.{field} is {context.get(field)!r}, not {value!r}")
        if not isinstance(context.get("runAsUser"), int) or context["runAsUser"] == 0:
            problems.append(f"{where}: securityContext.runAsUser must be a numeric non-root UID")
        if context.get("capabilities", {}).get("drop") != ["ALL"]:
            problems.append(f"{where}: capabilities must drop ALL")
        if context.get("capabilities", {}).get("add"):
            problems.append(f"{where}: adds capabilities {context['capabilities']['add']}")
        if context.get("seccompProfile", {}).get("type") != "RuntimeDefault":
            problems.append(f"{where}: seccompProfile must be RuntimeDefault")
        if context.get("privileged"):
            problems.append(f"{where}: privileged")
        if (problem := image_problem(container["image"])) is not None:
            problems.append(f"{where}: {problem}")
        tmp = [mount for mount in container.get("volumeMounts", []) if mount["mountPath"] == "/tmp"]
        if not tmp or "emptyDir" not in volumes.get(tmp[0]["name"], {}):
            problems.append(f"{where}: a read-only root needs a writable emptyDir at /tmp")
    if spec.get("hostNetwork") or spec.get("hostPID") or spec.get("hostIPC"):
        problems.append(f"{name_of(workload)}: shares a host namespace")
    if spec.get("automountServiceAccountToken") is not False:
        problems.append(f"{name_of(workload)}: mounts a service account token it has no use for")
    return problems


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_container_follows_the_policies(overlay):
    objects = render(overlay)
    assert workloads(objects), "no workloads rendered"
    problems = [problem for workload in workloads(objects) for problem in container_problems(workload)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_tabletop_processes_probe_their_grpc_health_service(overlay):
    """Readiness asks the named service, liveness the overall server, both natively over gRPC: on the gRPC port,
    or, when it serves TLS (which the kubelet's gRPC probes do not speak), on the plaintext health port."""
    objects = render(overlay)
    settings = config_data(objects)
    for name, process in TABLETOP_PROCESSES.items():
        deployment = next(d for d in of_kind(objects, "Deployment") if d["metadata"]["name"] == name)
        (container,) = pod_spec(deployment)["containers"]
        grpc_port = int(settings[process["port_var"]])
        expected = {"grpc": grpc_port, "metrics": int(settings[process["metrics_var"]])}
        probed = grpc_port
        if settings.get("TABLETOP_TLS_CERT_FILE"):
            probed = expected["health"] = int(settings.get(process["health_var"]) or 0)
            assert probed, f"{name} serves TLS: set {process['health_var']} for the probes"
        ports = {port["name"]: port["containerPort"] for port in container["ports"]}
        assert ports == expected, name
        readiness, liveness = container["readinessProbe"], container["livenessProbe"]
        assert readiness["grpc"] == {"port": probed, "service": process["health_service"]}, name
        assert liveness["grpc"] == {"port": probed, "service": ""}, name
        assert container["startupProbe"]["grpc"]["port"] == probed, name
        startup_budget = container["startupProbe"]["periodSeconds"] * container["startupProbe"]["failureThreshold"]
        assert startup_budget >= 30, f"{name}: give a cold start at least 30 s before liveness takes over"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_tabletop_processes_run_the_subcommand_of_their_deployment(overlay):
    objects = render(overlay)
    for name, process in TABLETOP_PROCESSES.items():
        deployment = next(d for d in of_kind(objects, "Deployment") if d["metadata"]["name"] == name)
        (container,) = pod_spec(deployment)["containers"]
        assert "command" not in container, f"{name}: keep the image's ENTRYPOINT (tabletop)"
        assert container["args"] == process["args"], name
        assert container["image"].rsplit(":", 1)[0].endswith("tabletop"), name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_termination_grace_covers_prestop_and_drain(overlay):
    """SIGKILL must not come before the preStop pause plus the drain that SIGTERM starts."""
    objects = render(overlay)
    drain = int(config_data(objects)["TABLETOP_SHUTDOWN_GRACE_SECONDS"])
    for name in TABLETOP_PROCESSES:
        deployment = next(d for d in of_kind(objects, "Deployment") if d["metadata"]["name"] == name)
        spec = pod_spec(deployment)
        (container,) = spec["containers"]
        pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
        assert pre_stop[0].endswith("sleep"), name
        pause = int(pre_stop[1])
        assert spec["terminationGracePeriodSeconds"] >= pause + drain + PRESTOP_MARGIN_SECONDS, name


@pytest.mark.parametrize("image, pinned", [
    ("tabletop:0.1.0", True), ("registry.example.com:5000/tabletop:0.1.0", True),
    ("tabletop@sha256:" + "0" * 64, True), ("tabletop", False), ("tabletop:latest", False),
    ("registry.example.com:5000/tabletop", False),
])
def test_the_image_pin_check_itself(image, pinned):
    assert (image_problem(image) is None) is pinned


def test_readiness_asks_for_the_services_the_protos_define():
    """The probe names must be the full names of the gRPC services, as the health servicers register them."""
    from tabletop.v1 import ai_service_pb2, game_service_pb2

    defined = {game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
               ai_service_pb2.DESCRIPTOR.services_by_name["AIService"].full_name}
    assert {process["health_service"] for process in TABLETOP_PROCESSES.values()} == defined
