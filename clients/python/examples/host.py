# A host application in Python: it reports an agent's run, a user rates the answer, a reviewer
# judges the run. Start evalflow with the quickstart app and make two keys:
#   npx evalflow start --config examples/quickstart/evalflow.config.ts
#   npx evalflow keys create --workspace quickstart --principal system          (SYSTEM_KEY)
#   npx evalflow keys create --workspace quickstart --principal reviewer:grace  (REVIEWER_KEY)
# then: EVALFLOW_URL=http://127.0.0.1:8787 SYSTEM_KEY=efk_... REVIEWER_KEY=efk_... python host.py
import os
import secrets

from evalflow_client import EvalflowClient, TurnTarget

# New ids on every run, so this runs any number of times, beside the other examples.
suffix = secrets.token_hex(4)
thread_id, run_id = f"thread-{suffix}", f"run-{suffix}"

with EvalflowClient(os.environ["EVALFLOW_URL"], os.environ["SYSTEM_KEY"]) as host:
    host.create_thread(thread_id)
    host.start_run(thread_id, run_id, trace_id=secrets.token_hex(16))
    host.post_message(thread_id, "ROLE_USER", "Where is my refund?", run_id=run_id)
    answer = host.post_message(thread_id, "ROLE_ASSISTANT", "On its way. Thank you!", run_id=run_id)
    host.end_run(run_id)  # evaluators judge the run now

    # The user rates the answer through a short-lived token acting as them.
    ada = host.with_key(host.create_user_token("ada").token)
    rated = ada.rate_message(
        thread_id, answer.message_id, "helpfulness", {"helpful": True, "stars": 5}
    )
    print("rated; raters on the message:", len(rated.rated_message.feedback))

    # The reviewer's verdict on the whole run, validated against its score config.
    grace = host.with_key(os.environ["REVIEWER_KEY"])
    verdict = {"verdict": "pass", "note": "clear and kind"}
    review = grace.submit_review(
        TurnTarget(run_id=run_id), "review_verdict", verdict, config_id="review_verdict"
    )
    print("review: recorded at position", review.position)

# Where to look once the engine has judged the run.
print(f"""{run_id} in workspace quickstart: see its verdicts and the scores with
  npx evalflow ledger --workspace quickstart --run {run_id}
  npx evalflow scores summary --workspace quickstart --config examples/quickstart/evalflow.config.ts
  and the engine's .evalflow/scores.jsonl (or Langfuse, when its keys are set)""")
