"""examples/host.py, run exactly as written against the real API, as its comment tells a user to."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from evalflow_client import EvalflowClient, TurnTarget

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "host.py"


def test_the_python_host_reports_a_run_rates_the_answer_and_reviews_the_run(evalflow, unique):
    workspace = f"example-{unique}"
    system_key, reviewer_key = evalflow.keys(workspace, "system", "reviewer:grace")
    env = {
        **os.environ,
        "EVALFLOW_URL": evalflow.url,
        "SYSTEM_KEY": system_key,
        "REVIEWER_KEY": reviewer_key,
    }
    ran = subprocess.run(
        [sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.splitlines() == [
        "rated; raters on the message: 1",
        "review: recorded at position 0",
    ]

    with EvalflowClient(evalflow.url, system_key) as system:
        messages = system.conversation("thread-1").messages
        assert [m.role for m in messages] == ["ROLE_USER", "ROLE_ASSISTANT"]
        rating = messages[1].feedback or []
        assert [(f.rater, f.feedback_type, f.value) for f in rating] == [
            ("user:ada", "helpfulness", {"helpful": True, "stars": 5})
        ]
        assert system.run("run-1").run.status == "completed"
    with EvalflowClient(evalflow.url, reviewer_key) as grace:
        # The review is there to revise.
        revised = grace.revise_review(
            TurnTarget(run_id="run-1"),
            "review_verdict",
            {"verdict": "fail"},
            config_id="review_verdict",
        )
        assert revised.is_update is True
