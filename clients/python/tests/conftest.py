"""One real evalflow for the whole session, keys for it, and clients of it."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from faults import FaultyProxy
from launcher import EvalflowServer

from evalflow_client import EvalflowClient

T = TypeVar("T")


@pytest.fixture(scope="session")
def evalflow() -> Iterator[EvalflowServer]:
    server = EvalflowServer().start()
    try:
        yield server
    finally:
        code = server.stop()
        assert code == 0, f"evalflow start exited with {code} on SIGINT:\n{server.output}"


@pytest.fixture
def unique() -> str:
    """A suffix that keeps one test's ids apart from another's in a shared workspace."""
    return uuid.uuid4().hex[:10]


@pytest.fixture
def connect(evalflow: EvalflowServer) -> Iterator[Callable[..., EvalflowClient]]:
    """``connect("agent")``: a sync client with a key for that principal (workspace ``py``)."""
    opened: list[EvalflowClient] = []

    def connect(principal: str, workspace: str = "py") -> EvalflowClient:
        client = EvalflowClient(evalflow.url, evalflow.key(principal, workspace))
        opened.append(client)
        return client

    yield connect
    for client in opened:
        client.close()


@pytest.fixture
def proxy(evalflow: EvalflowServer) -> Iterator[FaultyProxy]:
    faulty = FaultyProxy(evalflow.url)
    yield faulty
    faulty.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def eventually(probe: Callable[[], T], done: Callable[[T], bool], timeout: float = 60) -> T:
    """Polls ``probe`` until ``done`` holds for its value; the last value at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.25)
