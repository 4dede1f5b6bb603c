import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/index.js';
import type { Envelope } from '../../src/core/index.js';
import { JsonlScoreSink } from '../../src/scores/file/index.js';
import type { SpanRecord } from '../../src/traces/index.js';
import { answeredApp } from '../support/answered-app.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually, repoRoot } from '../support/processes.js';
import { readyVenv, run } from '../support/python-venv.js';
import { devServerEnvironment } from '../support/temporal.js';

// The OTLP receiver with Python clients nobody here wrote: the OpenAI Agents SDK traced by
// OpenInference, and the `openai` client traced by the OTel GenAI instrumentation, each exporting
// with the OpenTelemetry SDK's OTLP/HTTP exporter into the API and engine with their real parts.
// The scripts they run (test/otlp-python/) hold the set-ups docs/traces.md shows, word for word.
//
// OpenAI's API cannot be reached from here, so the model is a stand-in: an HTTP server in this
// process that answers the Responses and Chat Completions endpoints as OpenAI does, in the shapes
// the real clients parse. Everything else is real: the SDKs, the instrumentations, the exporters.

const scripts = join(repoRoot, 'test', 'otlp-python');
const requirements = join(scripts, 'requirements.txt');
let python = '';

// ---- The stand-in model ----------------------------------------------------------------------

interface ModelRequest {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: the request as the client sent it
  body: any;
}

const usage = {
  input_tokens: 20,
  output_tokens: 5,
  total_tokens: 25,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

/** What the stand-in answers a Responses API request: a tool call, then the answer. */
// biome-ignore lint/suspicious/noExplicitAny: the request as the client sent it
function responsesReply(body: any, n: number): { status: number; json: unknown } {
  const items: { type?: string; role?: string; content?: unknown; output?: string }[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const lastUser = items.findLastIndex((item) => item.role === 'user');
  const asked = String(items[lastUser]?.content ?? '');
  if (asked.includes('fail')) {
    return {
      status: 400,
      json: {
        error: {
          message: 'Invalid value for input.',
          type: 'invalid_request_error',
          param: 'input',
          code: null,
        },
      },
    };
  }
  const order = /order (\d+)/.exec(asked)?.[1] ?? '0';
  const toolResult = items.slice(lastUser + 1).find((item) => item.type === 'function_call_output');
  const output = toolResult
    ? [
        {
          type: 'message',
          id: `msg_${n}`,
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: `Order ${order}: ${toolResult.output}.`, annotations: [] },
          ],
        },
      ]
    : [
        {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: 'lookup_order',
          arguments: JSON.stringify({ order: Number(order) }),
          status: 'completed',
        },
      ];
  return {
    status: 200,
    json: {
      id: `resp_${n}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'completed',
      model: body.model,
      output,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage,
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the request as the client sent it
function chatReply(body: any, n: number): { status: number; json: unknown } {
  const asked = String(body.messages.at(-1)?.content ?? '');
  const order = /order (\d+)/.exec(asked)?.[1] ?? '0';
  return {
    status: 200,
    json: {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: `Order ${order} ships today.` },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
    },
  };
}

/** A loopback HTTP server speaking OpenAI's API to the clients: the model they call. */
async function startModel(): Promise<{
  url: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}> {
  const requests: ModelRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? {} : JSON.parse(text);
      requests.push({ path, body });
      const reply =
        req.method === 'POST' && path === '/v1/responses'
          ? responsesReply(body, requests.length)
          : req.method === 'POST' && path === '/v1/chat/completions'
            ? chatReply(body, requests.length)
            : {
                status: 404,
                json: { error: { message: `no ${req.method} ${path} here`, type: 'not_found' } },
              };
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'x-request-id': `req_${requests.length}`,
      });
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---- evalflow --------------------------------------------------------------------------------

const workspace = 'otlp-python';
let env: TestWorkflowEnvironment;
let h: ApiHarness;
let model: Awaited<ReturnType<typeof startModel>>;
let agentKey = '';
beforeAll(async () => {
  // The first run installs the venv (a minute or two); later runs find it ready.
  python = await readyVenv(join(scripts, '.venv'), [requirements], ['-r', requirements]);
  env = await devServerEnvironment();
  h = await startApi(env, answeredApp, {
    traces: {
      bodyLimitBytes: DEFAULTS.otlpBodyLimitBytes,
      settleMs: 300,
      idleMs: 60_000,
      conversationAttribute: null,
    },
  });
  agentKey = await h.key('agent', workspace);
  model = await startModel();
}, 600_000);
afterAll(async () => {
  await model?.close();
  await h?.close();
  await env?.teardown();
});

/** Runs a script of test/otlp-python/ against evalflow and the stand-in model. */
async function runScript(
  script: string,
  args: string[],
  options: { key?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const result = await run(python, [join(scripts, script), ...args], {
    cwd: scripts,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_PROXY: '127.0.0.1,localhost',
      OTEL_EXPORTER_OTLP_ENDPOINT: h.url,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${options.key ?? agentKey}`,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test',
      ...options.env,
    },
  });
  expect(result.code, result.shown).toBe(0);
  return JSON.parse(result.out.trim().split('\n').at(-1) ?? 'null');
}

const eventsOf = (ws: string): Promise<Envelope[]> => h.engine.store.events({ workspace_id: ws });

/** The runs of a thread once `count` of them have ended and each has its verdict. */
async function judgedRuns(ws: string, filter: { thread_id?: string }, count: number) {
  const runs = await eventually(
    () => h.engine.store.runs(ws, { ...filter, limit: 10 }),
    (found) => found.length === count && found.every((r) => r.status !== 'running'),
    60_000,
    100,
  );
  expect(runs).toHaveLength(count);
  const ids = runs.map((r) => r.run_id);
  const verdicts = (events: Envelope[]) =>
    events.filter(
      (e) =>
        e.event.type === 'feedback_given' &&
        e.event.target.kind === 'turn' &&
        ids.includes(e.event.target.run_id),
    );
  await eventually(
    () => eventsOf(ws),
    (events) => verdicts(events).length >= count,
    60_000,
    100,
  );
  return { runs, verdicts: async () => verdicts(await eventsOf(ws)) };
}

/** The root span evalflow stored for a trace. */
async function rootOf(ws: string, traceId: string): Promise<SpanRecord | undefined> {
  // Spans and the log records naming them are kept side by side; a record has no parent field.
  const kept = (await h.engine.store.traceSpans.ofTrace(ws, traceId)) as SpanRecord[];
  return kept.find((span) => span.parentSpanId === null);
}

describe('OpenAI Agents SDK traced by OpenInference', () => {
  it.each(['batch', 'simple'])(
    'records two turns of one session as one thread of two runs with their messages, judged once each (%s span processor)',
    async (processor) => {
      const conversation = `conv-agents-${processor}`;
      const before = model.requests.length;
      const printed = await runScript('agents_turns.py', [processor, conversation]);
      expect(printed.processors).toEqual(['OpenInferenceTracingProcessor']);
      expect(printed.answers).toEqual([
        'Order 7: order 7 ships on Monday.',
        'Order 8: order 8 ships on Tuesday.',
      ]);
      // One tool round a turn: the model was called twice per turn, the second turn with the
      // first turn's history.
      const calls = model.requests.slice(before);
      expect(calls.map((c) => c.path)).toEqual(Array(4).fill('/v1/responses'));

      const { runs, verdicts } = await judgedRuns(workspace, { thread_id: conversation }, 2);
      const traces = runs.map((r) => r.trace_ids);
      expect(traces.every((ids) => ids.length === 1)).toBe(true);
      expect(new Set(traces.flat()).size).toBe(2);
      for (const run of runs) {
        const traceId = run.trace_ids[0] as string;
        // The run is the trace's root AGENT span, named by the OTel ids.
        const root = await rootOf(workspace, traceId);
        expect(root?.attributes['openinference.span.kind']).toBe('AGENT');
        expect(root?.attributes['session.id']).toBe(conversation);
        expect(run).toMatchObject({
          run_id: `${traceId}-${root?.spanId}`,
          thread_id: conversation,
          status: 'completed',
        });
        const listed = await h.call('GET', `/v1/runs?traceId=${traceId}`, {
          key: await h.key('system', workspace),
        });
        expect(listed.body.runs.map((r: { run: { runId: string } }) => r.run.runId)).toEqual([
          run.run_id,
        ]);
        // Its steps: the model asks for the tool, the tool answers, the model answers (the model
        // the SDK asked for, which the stand-in echoes).
        const steps = listed.body.runs[0].steps as Record<string, unknown>[];
        const asked = calls[0]?.body.model;
        expect(steps.map((s) => [s.kind, s.toolName ?? s.model, s.status])).toEqual([
          ['model', asked, 'ok'],
          ['tool', 'lookup_order', 'ok'],
          ['model', asked, 'ok'],
        ]);
        expect(steps[1]).toMatchObject({ result: expect.stringMatching(/^order [78] ships on/) });
        expect(steps[0]).toMatchObject({ inputTokens: expect.any(Number) });
      }
      // Each run has its turn's input and answer. The thread holds both turns; their order in it
      // is the order the two traces were recorded in, which for traces exported in one batch is
      // not yet the order of the turns (docs/traces.md, "Not yet").
      const messages = (await h.engine.store.conversation(workspace, conversation)) ?? [];
      expect(messages).toHaveLength(4);
      const turns = runs.map((r) =>
        messages.filter((m) => m.run_id === r.run_id).map((m) => [m.role, m.content]),
      );
      expect(turns).toEqual(
        expect.arrayContaining([
          [
            ['user', 'Where is order 7?'],
            ['assistant', 'Order 7: order 7 ships on Monday.'],
          ],
          [
            ['user', 'And order 8?'],
            ['assistant', 'Order 8: order 8 ships on Tuesday.'],
          ],
        ]),
      );
      // Each run judged exactly once, on the turn's two messages.
      const given = await verdicts();
      expect(
        given.map((e) => (e.event as { target: { run_id: string } }).target.run_id).sort(),
      ).toEqual(runs.map((r) => r.run_id).sort());
      for (const verdict of given) {
        expect(verdict.event).toMatchObject({ value: { answered: true, messages: 2 } });
      }
      // Scores mirrored onto each OTel trace, on its agent span.
      const sink = new JsonlScoreSink(h.scoresFile);
      for (const run of runs) {
        const [traceId, spanId] = run.run_id.split('-');
        const scores = await eventually(
          async () => [...(await sink.all()).values()].filter((s) => s.traceId === traceId),
          (found) => found.length > 0,
        );
        expect(scores).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: 'answered.answered', spanId })]),
        );
      }
    },
    300_000,
  );

  it('ends a turn whose model call fails (a 400 the SDK does not retry) failed', async () => {
    const conversation = 'conv-agents-fail';
    const before = model.requests.length;
    const printed = await runScript('agents_turns.py', ['fail', conversation]);
    expect(printed).toEqual({
      error: 'BadRequestError',
      processors: ['OpenInferenceTracingProcessor'],
    });
    expect(model.requests.length - before).toBe(1);
    const { runs, verdicts } = await judgedRuns(workspace, { thread_id: conversation }, 1);
    expect(runs[0]?.status).toBe('failed');
    // Its one step, the model call, failed with the API's error.
    const read = await h.call('GET', `/v1/runs/${runs[0]?.run_id}`, {
      key: await h.key('system', workspace),
    });
    expect(read.body.steps).toMatchObject([
      { kind: 'model', status: 'error', error: expect.any(String) },
    ]);
    // The turn's input was only on the failed model call's span, which OpenInference sends
    // without it: the run has no messages, and the judge is told so.
    expect(await h.engine.store.conversation(workspace, conversation)).toEqual([]);
    const given = await verdicts();
    expect(given).toHaveLength(1);
    expect(given[0]?.event).toMatchObject({ value: { answered: false, messages: 0 } });
  }, 300_000);
});

describe('the OTel GenAI instrumentation of the openai client', () => {
  it.each([
    ['span_only', 'on the span'],
    ['event_only', 'in a log record naming the span (POST /v1/logs)'],
  ])(
    'records a call (the chat span the trace root, no agent span) as a run of a thread of its own, its content captured %s: %s',
    async (capture) => {
      const ws = `otlp-python-openai-${capture}`;
      const printed = await runScript('openai_chat.py', ['call'], {
        key: await h.key('agent', ws),
        env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: capture },
      });
      expect(printed).toEqual({ answers: ['Order 7 ships today.'] });
      const { runs, verdicts } = await judgedRuns(ws, {}, 1);
      const run = runs[0];
      const traceId = run?.trace_ids[0] as string;
      const root = await rootOf(ws, traceId);
      expect(root).toMatchObject({ name: 'chat gpt-4o-mini', kind: 3 });
      expect(root?.attributes['gen_ai.input.messages'] !== undefined).toBe(capture === 'span_only');
      expect(run).toMatchObject({
        run_id: `${traceId}-${root?.spanId}`,
        thread_id: `trace-${traceId}`,
        status: 'completed',
      });
      // The call is the run's one step, with the tokens the API reported.
      const read = await h.call('GET', `/v1/runs/${run?.run_id}`, {
        key: await h.key('system', ws),
      });
      expect(read.body.steps).toMatchObject([
        { kind: 'model', spanId: root?.spanId, inputTokens: 12, outputTokens: 6, status: 'ok' },
      ]);
      expect(
        (await h.engine.store.conversation(ws, `trace-${traceId}`))?.map((m) => [
          m.role,
          m.content,
        ]),
      ).toEqual([
        ['user', 'Is order 7 on its way?'],
        ['assistant', 'Order 7 ships today.'],
      ]);
      const given = await verdicts();
      expect(given).toHaveLength(1);
      expect(given[0]?.event).toMatchObject({ value: { answered: true, messages: 2 } });
    },
    300_000,
  );

  it("groups turns whose calls run inside the app's own invoke_agent span with gen_ai.conversation.id", async () => {
    const ws = 'otlp-python-openai-conversation';
    const conversation = 'conv-openai';
    const printed = await runScript('openai_chat.py', ['conversation', conversation], {
      key: await h.key('agent', ws),
      env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'span_only' },
    });
    expect(printed).toEqual({ answers: ['Order 7 ships today.', 'Order 8 ships today.'] });
    const { runs, verdicts } = await judgedRuns(ws, { thread_id: conversation }, 2);
    for (const run of runs) {
      const traceId = run.trace_ids[0] as string;
      const root = await rootOf(ws, traceId);
      expect(root).toMatchObject({ name: 'invoke_agent support' });
      expect(run).toMatchObject({ run_id: `${traceId}-${root?.spanId}`, status: 'completed' });
    }
    // Each turn's own input only, though its call was given the whole history.
    const messages = (await h.engine.store.conversation(ws, conversation)) ?? [];
    expect(messages).toHaveLength(4);
    expect(
      runs.map((r) =>
        messages.filter((m) => m.run_id === r.run_id).map((m) => [m.role, m.content]),
      ),
    ).toEqual(
      expect.arrayContaining([
        [
          ['user', 'Is order 7 on its way?'],
          ['assistant', 'Order 7 ships today.'],
        ],
        [
          ['user', 'Is order 8?'],
          ['assistant', 'Order 8 ships today.'],
        ],
      ]),
    );
    expect(await verdicts()).toHaveLength(2);
  }, 300_000);
});

describe('docs/traces.md', () => {
  it('shows the Python set-ups the tests run, word for word', () => {
    const docs = readFileSync(join(repoRoot, 'docs', 'traces.md'), 'utf8');
    const blocks = [...docs.matchAll(/```python\n([\s\S]*?)```/g)].map((m) =>
      (m[1] as string).trim(),
    );
    const between = (file: string, marker: string) => {
      const text = readFileSync(join(scripts, file), 'utf8');
      const found = new RegExp(`# docs: ${marker}\\n([\\s\\S]*?)# docs: end\\n`).exec(text);
      expect(found, `${file} marks its documented set-up`).not.toBeNull();
      return (found?.[1] ?? '').trim();
    };
    expect(blocks).toEqual([
      between('agents_turns.py', 'agents set-up'),
      between('openai_chat.py', 'openai set-up'),
      between('openai_chat.py', 'openai conversation'),
    ]);
  });
});
