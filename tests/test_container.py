"""The container files, read as Docker would (CI cannot run Docker here): compose.yaml's
services, their health checks and that every setting it passes is one .env.example documents;
the Dockerfile's base, user, health check and command; and that a non-editable install (the
image's) ships every file the packages read at run time."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import tomllib
from pathlib import Path

import yaml

from bot.config import parse_dotenv

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = parse_dotenv((ROOT / ".env.example").read_text(encoding="utf-8")).keys()


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_compose_runs_the_bot_postgresql_and_the_live_seat_each_with_a_health_check() -> None:
    services = compose()["services"]
    assert services.keys() == {"bot", "db", "webapp"}
    for name, service in services.items():
        test = service["healthcheck"]["test"]
        assert test[0] in ("CMD", "CMD-SHELL") and len(test) > 1, name
    db = services["db"]
    assert db["image"].startswith("postgres:")  # the official image
    [volume] = db["volumes"]
    assert volume.split(":")[1] == "/var/lib/postgresql/data"
    assert volume.split(":")[0] in compose()["volumes"]  # a named volume, not a host path
    for name in ("bot", "webapp"):
        app = services[name]
        assert app["env_file"] == ".env" and app["build"] == "."
        assert app["depends_on"]["db"]["condition"] == "service_healthy"
        assert app["environment"]["DATABASE_URL"].endswith("@db:5432/paohuzi")
        assert app["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "healthcheck"]
        assert app["environment"]["METRICS_PORT"]  # what the health check asks
    assert services["webapp"]["command"] == ["python", "-m", "bot", "webapp"]
    assert "CMD" not in str(services["bot"].get("command", ""))  # the image's: python -m bot


def test_every_setting_compose_passes_or_reads_is_documented_in_env_example() -> None:
    services = compose()["services"]
    passed = {key for name in ("bot", "webapp") for key in services[name]["environment"]}
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    interpolated = set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)", text))
    assert passed and interpolated
    assert passed | interpolated <= EXAMPLE, (passed | interpolated) - EXAMPLE


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each a list of (instruction, arguments), lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    stages: list[list[tuple[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        instruction, _, args = line.strip().partition(" ")
        if instruction.upper() == "FROM":
            stages.append([])
        stages[-1].append((instruction.upper(), args.strip()))
    return stages


def test_the_image_is_slim_python_run_by_a_user_who_is_not_root() -> None:
    stages = dockerfile_stages()
    final = stages[-1]
    assert all(args.startswith("python:") and "-slim" in args.split()[0]
               for stage in stages for instruction, args in stage if instruction == "FROM")
    [user] = [args for instruction, args in final if instruction == "USER"]
    assert user not in ("root", "0") and not user.startswith("0:")
    assert [i for i, _ in final].index("USER") < [i for i, _ in final].index("CMD")
    [(_, health)] = [(i, a) for i, a in final if i == "HEALTHCHECK"]
    assert health.endswith('CMD ["python", "-m", "bot", "healthcheck"]')
    assert ("CMD", '["python", "-m", "bot"]') in final
    # what the final stage takes from the build: the environment only (no compiler, no pip cache)
    copies = [a for i, a in final if i == "COPY"]
    assert copies == ["--from=build /opt/paohuzi /opt/paohuzi"]
    copied = {a.split()[0] for i, a in stages[0] if i == "COPY"}
    assert {"engine", "render", "bot", "docs/rules"} <= copied  # render/fonts: the font


def test_an_install_ships_every_file_the_packages_read() -> None:
    """Every file of the packages that is not Python matches the package data (a wheel
    without bot/webapp/static/index.html served no live seat)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    tracked = subprocess.run(["git", "ls-files", "engine", "render", "bot"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    missing = []
    for path in (p for p in tracked if not p.endswith(".py")):
        shipped = any(path.startswith(package.replace(".", "/") + "/") and fnmatch.fnmatch(
            path.removeprefix(package.replace(".", "/") + "/"), pattern)
            for package, patterns in data.items() for pattern in patterns)
        if not shipped:
            missing.append(path)
    assert tracked and not missing, missing
