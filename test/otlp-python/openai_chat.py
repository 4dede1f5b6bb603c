"""Chat Completions calls of the `openai` client traced by the OTel GenAI instrumentation of it
(opentelemetry-instrumentation-openai-v2), its spans and its content logs exported to evalflow.

Run by test/api/otlp-python.temporal.test.ts as `python openai_chat.py MODE [CONVERSATION]`:

- `call`: one call, nothing around it: the `chat` span is the trace's root.
- `conversation`: two turns of one conversation, each call inside a span of the app's own that
  names the conversation (`invoke_agent`, `gen_ai.conversation.id`).

`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `span_only` (the messages as the chat
span's `gen_ai.input.messages`/`gen_ai.output.messages`) or `event_only` (as a log record,
`gen_ai.client.inference.operation.details`, naming the span); `true` captures nothing on these
versions (the instrumentation logs that it is not a valid option). The blocks between `docs:`
markers are the ones docs/traces.md shows; the test checks that they are the same text.
"""

import json
import sys

MODE = sys.argv[1]

# docs: openai set-up
from openai import OpenAI
from opentelemetry import _logs, trace
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

# OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:8787 and
# OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20efk_..." name evalflow and the agent's key;
# OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only puts the messages on the span,
# event_only sends them as a log record naming it (hence the logs exporter).
resource = Resource.create({"service.name": "support-bot"})
tracer_provider = TracerProvider(resource=resource)
tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
trace.set_tracer_provider(tracer_provider)
logger_provider = LoggerProvider(resource=resource)
logger_provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
_logs.set_logger_provider(logger_provider)
OpenAIInstrumentor().instrument()

client = OpenAI()
# docs: end

# docs: openai conversation
tracer = trace.get_tracer("support-bot")


def turn(conversation_id: str, history: list) -> str:
    # The app's own span is the run's agent span and names its thread; the call is its model call.
    with tracer.start_as_current_span(
        "invoke_agent support",
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.conversation.id": conversation_id,
        },
    ):
        completion = client.chat.completions.create(model="gpt-4o-mini", messages=history)
    return completion.choices[0].message.content


# docs: end

try:
    if MODE == "call":
        completion = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "Is order 7 on its way?"}],
        )
        print(json.dumps({"answers": [completion.choices[0].message.content]}))
    else:
        history: list = []
        answers = []
        for text in ["Is order 7 on its way?", "Is order 8?"]:
            history.append({"role": "user", "content": text})
            answers.append(turn(sys.argv[2], history))
            history.append({"role": "assistant", "content": answers[-1]})
        print(json.dumps({"answers": answers}))
finally:
    # Send what the processors still hold before the process ends: the logs first, so that the
    # messages are there when the span that ends the run arrives.
    logger_provider.shutdown()
    tracer_provider.shutdown()
