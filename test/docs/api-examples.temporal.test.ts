import { readFileSync, writeFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import app from '../../examples/quickstart/evalflow.config.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { devServerEnvironment } from '../support/temporal.js';
import {
  difference,
  firstEvents,
  formatJson,
  type HttpExample,
  type HttpRequest,
  keepDocumented,
  parseExamples,
  streamEvents,
} from './http-examples.js';

// docs/api.md's worked examples, run in order, exactly as written, against the real API (the
// quickstart app, a worker on the dev server, the relays) in a fresh workspace: each answer must
// have the documented status, headers and body (made-up ids and times aside). With
// EVALFLOW_WRITE_DOCS=1 (`npm run docs:api`) the answers are written into the document instead.

const file = 'docs/api.md';
const writing = process.env.EVALFLOW_WRITE_DOCS === '1';
const workspace = 'acme';

/** The keys the document names, and values later requests take from earlier answers. */
const principals: Record<string, string> = {
  SYSTEM_KEY: 'system',
  AGENT_KEY: 'agent',
  ADMIN_KEY: 'admin',
  REVIEWER_KEY: 'reviewer:grace',
};
const captures: { method: string; path: string; name: string; field: string }[] = [
  { method: 'POST', path: '/v1/user-tokens', name: 'USER_TOKEN', field: 'token' },
  { method: 'POST', path: '/v1/reevaluations', name: 'BATCH_ID', field: 'id' },
  { method: 'POST', path: '/v1/reviewers/grace/sign-in', name: 'SIGN_IN_TOKEN', field: 'token' },
];

let env: TestWorkflowEnvironment;
let h: ApiHarness;
const values = new Map<string, string>();

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
  for (const [name, principal] of Object.entries(principals)) {
    values.set(name, await h.key(principal, workspace));
  }
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

const substitute = (text: string) =>
  text.replace(/\$([A-Z_]+)/g, (whole, name: string) => values.get(name) ?? whole);

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function send(request: HttpRequest, events?: number): Promise<Answer> {
  const abort = new AbortController();
  const response = await fetch(`${h.url}${substitute(request.path)}`, {
    method: request.method,
    headers: request.headers.map(([name, value]) => [name, substitute(value)]),
    ...(request.body !== undefined ? { body: substitute(request.body) } : {}),
    signal: abort.signal,
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
  // An event stream never ends: read until the documented events arrived (or, writing, until
  // it has been quiet for a second), then hang up.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const next = await Promise.race([
      reader.read(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
    ]);
    if (next === null) {
      if (events === undefined) break;
      continue;
    }
    if (next.done) break;
    text += decoder.decode(next.value, { stream: true });
    if (events !== undefined && streamEvents(text).length >= events) break;
  }
  abort.abort();
  const shown = events === undefined ? text : firstEvents(text, events);
  return { status: response.status, headers: response.headers, text: shown };
}

const isStream = (answer: Answer) =>
  (answer.headers.get('content-type') ?? '').startsWith('text/event-stream');

/** What differs between an answer and the documented one; '' when they agree. */
function mismatch(example: HttpExample, answer: Answer): string {
  const documented = { ...example.answer, body: substitute(example.answer.body) };
  if (answer.status !== documented.status) {
    return `status ${answer.status}, documented ${documented.status}: ${answer.text}`;
  }
  for (const [name, value] of documented.headers) {
    if (answer.headers.get(name) !== value) {
      return `header ${name}: ${answer.headers.get(name)}, documented ${value}`;
    }
  }
  if (isStream(answer)) {
    const wanted = streamEvents(documented.body);
    const got = streamEvents(answer.text).slice(0, wanted.length);
    return difference(wanted, got, documented.shapeOnly);
  }
  if (documented.body === '' || answer.text === '') {
    return documented.body === answer.text ? '' : `body ${answer.text}, documented none`;
  }
  return difference(JSON.parse(documented.body), JSON.parse(answer.text), documented.shapeOnly);
}

function answerBlock(example: HttpExample, answer: Answer): string {
  const lines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd()];
  const type = answer.headers.get('content-type');
  if (type) lines.push(`content-type: ${type}`);
  if (answer.headers.get('idempotent-replayed')) lines.push('idempotent-replayed: true');
  if (answer.headers.get('retry-after')) {
    lines.push(`retry-after: ${answer.headers.get('retry-after')}`);
  }
  if (answer.text !== '') {
    lines.push('', isStream(answer) ? streamText(example, answer) : jsonText(example, answer));
  }
  return `\`\`\`http\n${lines.join('\n')}\n\`\`\``;
}

it('answers every example in docs/api.md as documented', { timeout: 600_000 }, async () => {
  const text = readFileSync(file, 'utf8');
  const examples = parseExamples(text);
  const rewritten: { example: HttpExample; block: string }[] = [];
  for (const example of examples) {
    const { method, path } = example.request;
    // A stream is read for as many events as the document shows (writing, any it has yet).
    const shown = isStreamRequest(example) ? streamEvents(example.answer.body).length : undefined;
    const events = writing && shown === 0 ? undefined : shown;
    // Reads wait for what the engine does in the background (evaluations, the mirror).
    // Writing, a read that never agrees gives up sooner: its answer is what gets written.
    const deadline = Date.now() + (method === 'GET' ? (writing ? 20_000 : 60_000) : 0);
    let answer = await send(example.request, events);
    let found = mismatch(example, answer);
    while (found !== '' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await send(example.request, events);
      found = mismatch(example, answer);
    }
    // Written with the names of values taken from earlier answers, as the requests use them.
    const unsubstitute = (text: string) =>
      [...values].reduce(
        (all, [name, value]) => (name in principals ? all : all.replaceAll(value, `$${name}`)),
        text,
      );
    if (writing) rewritten.push({ example, block: unsubstitute(answerBlock(example, answer)) });
    for (const capture of captures) {
      if (capture.method === method && capture.path === path && answer.status < 300) {
        values.set(capture.name, String(JSON.parse(answer.text)[capture.field]));
      }
    }
    if (!writing) expect(found, `${method} ${path}`).toBe('');
  }
  if (writing) {
    let out = text;
    for (const { example, block } of rewritten.reverse()) {
      out = out.slice(0, example.answerStart) + block + out.slice(example.answerEnd);
    }
    writeFileSync(file, out);
  }
});

it('has a worked example of every route the OpenAPI document lists', async () => {
  const spec = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const examples = parseExamples(readFileSync(file, 'utf8'));
  const missing: string[] = [];
  for (const [template, operations] of Object.entries(spec.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
    for (const method of Object.keys(operations)) {
      const shown = examples.some(
        (e) => e.request.method === method.toUpperCase() && pattern.test(e.request.path),
      );
      if (!shown) missing.push(`${method.toUpperCase()} ${template}`);
    }
  }
  expect(missing, 'routes without a worked example in docs/api.md').toEqual([]);
});

const isStreamRequest = (example: HttpExample) =>
  example.answer.headers.some(
    ([name, value]) => name === 'content-type' && value.startsWith('text/event-stream'),
  );

function jsonText(example: HttpExample, answer: Answer): string {
  const actual = JSON.parse(answer.text);
  if (example.answer.body === '') return formatJson(actual);
  return formatJson(keepDocumented(JSON.parse(substitute(example.answer.body)), actual));
}

/** The stream's text, each event's data keeping the documented values it matches. */
function streamText(example: HttpExample, answer: Answer): string {
  const documented = streamEvents(substitute(example.answer.body));
  return answer.text
    .trimEnd()
    .split('\n')
    .map((line) => {
      if (!line.startsWith('data: ')) return line;
      const data = JSON.parse(line.slice('data: '.length));
      const before = documented.find((event) => (event.data as { seq?: number })?.seq === data.seq);
      return `data: ${JSON.stringify(before ? keepDocumented(before.data, data) : data)}`;
    })
    .join('\n');
}
