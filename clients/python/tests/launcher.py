"""A real evalflow for the tests: `evalflow start` (the Temporal dev server, a worker and the HTTP
API) from the repository's sources, in a temp working directory on embedded defaults, and API
keys made with `evalflow keys create`, as a user would."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(os.environ.get("EVALFLOW_REPO") or Path(__file__).resolve().parents[3])
APP = Path(__file__).resolve().parent / "evalflow.config.ts"
STARTUP_SECONDS = 180


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def embedded_environment() -> dict[str, str]:
    """This environment without evalflow's own settings (CI sets DATABASE_URL), so the defaults
    apply: SQLite and score files under the working directory, the CLI's dev server."""
    mine = ("EVALFLOW_", "TEMPORAL_", "LANGFUSE_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(mine) and k != "DATABASE_URL"}
    # The Temporal binaries: those named already (the vitest wrapper passes its own), else the
    # ones `npm run setup` put in the repository, so nothing is fetched into each temp home.
    for variable, binary in (
        ("TEMPORAL_CLI_PATH", "temporal"),
        ("TEMPORAL_TEST_SERVER_PATH", "temporal-test-server"),
    ):
        named = os.environ.get(variable)
        if named and Path(named).exists():
            env[variable] = named
        elif (REPO / ".evalflow" / "bin" / binary).exists():
            env[variable] = str(REPO / ".evalflow" / "bin" / binary)
    env["EVALFLOW_TASK_QUEUE"] = f"python-client-{uuid.uuid4().hex[:12]}"
    return env


def cli_command(*args: str) -> list[str]:
    """`evalflow ARGS...` from the sources: node with tsx's loader and the source condition."""
    node = os.environ.get("EVALFLOW_NODE") or shutil.which("node") or "node"
    loader = (REPO / "node_modules" / "tsx" / "dist" / "loader.mjs").as_uri()
    main = str(REPO / "src" / "cli" / "main.ts")
    return [node, "--conditions=evalflow-source", "--import", loader, main, *args]


class EvalflowServer:
    """`evalflow start` running until ``stop()``; ``url`` is its API."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="evalflow-python-"))
        self.env = embedded_environment()
        self.api_port = free_port()
        self.temporal_port = free_port()
        self.url = f"http://127.0.0.1:{self.api_port}"
        self._output: deque[str] = deque(maxlen=200)
        self._keys: dict[tuple[str, str], str] = {}
        self._keys_lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> EvalflowServer:
        args = ["start", "--port", str(self.temporal_port), "--ui-port", str(free_port())]
        args += ["--api-port", str(self.api_port), "--metrics-port", str(free_port())]
        args += ["--config", str(APP)]
        self._process = subprocess.Popen(
            cli_command(*args),
            cwd=self.home,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        ready = threading.Event()
        threading.Thread(target=self._drain, args=(ready,), daemon=True).start()
        deadline = time.monotonic() + STARTUP_SECONDS
        while not ready.wait(0.2):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("evalflow start did not serve its API:\n" + self.output)
        return self

    def _drain(self, ready: threading.Event) -> None:
        # Read every line, so the process never blocks on a full pipe; the API line means ready.
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._output.append(line.rstrip("\n"))
            if "evalflow: API at" in line:
                ready.set()

    @property
    def output(self) -> str:
        return "\n".join(self._output)

    def key(self, principal: str, workspace: str = "py") -> str:
        """A key for ``principal`` (``system``, ``reviewer:grace``, ...), made once per pair."""
        with self._keys_lock:
            known = self._keys.get((workspace, principal))
        if known is not None:
            return known
        made = subprocess.run(
            cli_command(
                "keys", "create", "--workspace", workspace, "--principal", principal, "--json"
            ),
            cwd=self.home,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if made.returncode != 0:
            raise RuntimeError(f"evalflow keys create failed ({made.returncode}): {made.stderr}")
        key = str(json.loads(made.stdout)["key"])
        with self._keys_lock:
            return self._keys.setdefault((workspace, principal), key)

    def keys(self, workspace: str, *principals: str) -> list[str]:
        """Several keys at once, made in parallel (each is a node process)."""
        with ThreadPoolExecutor(max_workers=4) as pool:
            return list(pool.map(lambda p: self.key(p, workspace), principals))

    def stop(self) -> int | None:
        """SIGINT, as a user's Ctrl-C: the API, the worker, then the dev server stop."""
        code = None
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                code = self._process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._process.kill()
                code = self._process.wait()
        elif self._process is not None:
            code = self._process.returncode
        shutil.rmtree(self.home, ignore_errors=True)
        return code
