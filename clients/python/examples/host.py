# A host application in Python: it reports an agent's run, a user rates the answer, a reviewer
# judges the run. Start evalflow with the quickstart app and make two keys:
#   evalflow start --config examples/quickstart/evalflow.config.ts
#   evalflow keys create --workspace quickstart --principal system          (SYSTEM_KEY)
#   evalflow keys create --workspace quickstart --principal reviewer:grace  (REVIEWER_KEY)
# then: EVALFLOW_URL=http://127.0.0.1:8787 SYSTEM_KEY=efk_... REVIEWER_KEY=efk_... python host.py
import os

from evalflow_client import EvalflowClient, TurnTarget

with EvalflowClient(os.environ["EVALFLOW_URL"], os.environ["SYSTEM_KEY"]) as host:
    host.create_thread("thread-1")
    host.start_run("thread-1", "run-1", trace_id="0af7651916cd43dd8448eb211c80319c")
    host.post_message("thread-1", "ROLE_USER", "Where is my refund?", run_id="run-1")
    answer = host.post_message(
        "thread-1", "ROLE_ASSISTANT", "On its way. Thank you!", run_id="run-1"
    )
    host.end_run("run-1")  # evaluators judge the run now

    # The user rates the answer through a short-lived token acting as them.
    ada = host.with_key(host.create_user_token("ada").token)
    rated = ada.rate_message(
        "thread-1", answer.message_id, "helpfulness", {"helpful": True, "stars": 5}
    )
    print("rated; raters on the message:", len(rated.rated_message.feedback))

    # The reviewer's verdict on the whole run, validated against its score config.
    grace = host.with_key(os.environ["REVIEWER_KEY"])
    verdict = {"verdict": "pass", "note": "clear and kind"}
    review = grace.submit_review(
        TurnTarget(run_id="run-1"), "review_verdict", verdict, config_id="review_verdict"
    )
    print("review: recorded at position", review.position)
