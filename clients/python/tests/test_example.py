"""examples/host.py, run exactly as written against the real API, as its comment tells a user to."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from evalflow_client import EvalflowClient, TurnTarget

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "host.py"


def run_example(env: dict[str, str]) -> str:
    """Runs the example; its output, and the id of the run it reported."""
    ran = subprocess.run(
        [sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    lines = ran.stdout.splitlines()
    run_id = lines[2].split()[0] if len(lines) > 2 else ""
    assert lines == [
        "rated; raters on the message: 1",
        "review: recorded at position 0",
        f"{run_id} in workspace quickstart: see its verdicts and the scores with",
        f"  npx evalflow ledger --workspace quickstart --run {run_id}",
        "  npx evalflow scores summary --workspace quickstart"
        " --config examples/quickstart/evalflow.config.ts",
        "  and the engine's .evalflow/scores.jsonl (or Langfuse, when its keys are set)",
    ]
    return run_id


def test_the_python_host_reports_a_run_rates_the_answer_and_reviews_the_run(evalflow):
    system_key, reviewer_key = evalflow.keys("quickstart", "system", "reviewer:grace")
    env = {
        **os.environ,
        "EVALFLOW_URL": evalflow.url,
        "SYSTEM_KEY": system_key,
        "REVIEWER_KEY": reviewer_key,
    }
    # Twice: each run reports a run of its own.
    first, second = run_example(env), run_example(env)
    assert first.startswith("run-") and second.startswith("run-") and first != second

    with EvalflowClient(evalflow.url, system_key) as system:
        messages = system.conversation(first.replace("run-", "thread-", 1)).messages
        assert [m.role for m in messages] == ["ROLE_USER", "ROLE_ASSISTANT"]
        # The user's rating; the answer_length evaluator may have judged the message beside it.
        rating = [f for f in messages[1].feedback or [] if f.rater.startswith("user:")]
        assert [(f.rater, f.feedback_type, f.value) for f in rating] == [
            ("user:ada", "helpfulness", {"helpful": True, "stars": 5})
        ]
        assert system.run(first).run.status == "completed"
        assert system.run(second).run.status == "completed"
    with EvalflowClient(evalflow.url, reviewer_key) as grace:
        # The review is there to revise.
        revised = grace.revise_review(
            TurnTarget(run_id=first),
            "review_verdict",
            {"verdict": "fail"},
            config_id="review_verdict",
        )
        assert revised.is_update is True
