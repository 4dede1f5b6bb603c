"""The package's types hold strictly (it ships py.typed), and the code is linted and formatted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_package_type_checks_strictly_and_the_tests_and_example_check_too():
    cache = str(Path(sys.prefix) / "mypy-cache")
    strict = run("mypy", "--strict", "--cache-dir", cache, "src")
    assert strict.returncode == 0, strict.stdout
    rest = run("mypy", "--check-untyped-defs", "--cache-dir", cache, "tests", "examples")
    assert rest.returncode == 0, rest.stdout


def test_the_code_is_linted_and_formatted():
    lint = run("ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout
    formatted = run("ruff", "format", "--check", ".")
    assert formatted.returncode == 0, formatted.stdout
