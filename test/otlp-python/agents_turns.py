"""Turns of the OpenAI Agents SDK traced by OpenInference and exported over OTLP/HTTP to evalflow.

Run by test/api/otlp-python.temporal.test.ts as `python agents_turns.py MODE CONVERSATION`:

- `batch`: two turns of one conversation, one tool round each, with the batch span processor.
- `simple`: the same with the simple span processor (a request per span, children first).
- `fail`: one turn whose model call the model answers with an error (400, not retried).

The environment names evalflow (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`) and
the model (`OPENAI_BASE_URL`, `OPENAI_API_KEY`). The set-up between the `docs:` markers is the
block docs/traces.md shows; the test checks that the two are the same text.
"""

import asyncio
import json
import sys

MODE = sys.argv[1]
CONVERSATION = sys.argv[2]

if MODE == "simple":
    # The documented set-up names the batch processor; this mode runs the same lines with the
    # simple one, which exports each span as it ends.
    import opentelemetry.sdk.trace.export as export

    export.BatchSpanProcessor = export.SimpleSpanProcessor  # type: ignore[misc]

# docs: agents set-up
from agents import Agent, Runner, function_tool
from openinference.instrumentation import using_session
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

# OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:8787 and
# OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20efk_..." name evalflow and the agent's key.
provider = TracerProvider(resource=Resource.create({"service.name": "support-bot"}))
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
# Replaces the Agents SDK's own trace processors (its exporter to OpenAI's backend included).
OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)


@function_tool
def lookup_order(order: int) -> str:
    """Where an order is."""
    return f"order {order} ships on {'Monday' if order % 2 else 'Tuesday'}"


agent = Agent(name="support", instructions="Answer about orders.", tools=[lookup_order])


async def turn(conversation_id: str, history: list, text: str):
    # Every span of the turn carries `session.id`: evalflow's thread.
    with using_session(conversation_id):
        return await Runner.run(agent, [*history, {"role": "user", "content": text}])


# docs: end


def processors() -> list[str]:
    # The SDK's registered trace processors (it lists them nowhere public; OpenInference reads
    # them the same way): OpenInference's alone, so nothing goes to OpenAI's tracing backend.
    from agents.tracing import get_trace_provider

    registered = get_trace_provider()._multi_processor._processors  # type: ignore[attr-defined]
    return [type(processor).__name__ for processor in registered]


async def main() -> None:
    if MODE == "fail":
        try:
            await turn(CONVERSATION, [], "Please fail: refund order 9")
        except Exception as error:  # the model's 400, raised by Runner.run
            print(json.dumps({"error": type(error).__name__, "processors": processors()}))
        return
    history: list = []
    answers = []
    for text in ["Where is order 7?", "And order 8?"]:
        result = await turn(CONVERSATION, history, text)
        answers.append(result.final_output)
        history = result.to_input_list()
    print(json.dumps({"answers": answers, "processors": processors()}))


try:
    asyncio.run(main())
finally:
    # Sends what the processor still holds before the process ends.
    provider.shutdown()
