import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtobuf, ExportTraceServiceRequest } from '../../src/api/otlp/protobuf.js';
import { readTraceRequest } from '../../src/traces/otlp-request.js';
import type { SpanRecord } from '../../src/traces/span.js';

// Stand-ins for what evalflow talks to when it traces its own work: a collector (a real HTTP
// server reading OTLP/HTTP protobuf trace exports with the receiver's own decoder) and an
// OpenAI-compatible chat completions endpoint for the LLM judge.

export interface Link {
  traceId: string;
  spanId: string;
  attributes: Record<string, unknown>;
}
export interface Received extends SpanRecord {
  links: Link[];
  serviceName: unknown;
}

/** A collector: every span it was sent, with its links, and each request's content type. */
export async function collector() {
  const spans: Received[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (request, response) => {
    const body = await bytesOf(request);
    contentTypes.push(String(request.headers['content-type']));
    const decoded = decodeProtobuf(ExportTraceServiceRequest, body) as {
      resourceSpans?: { scopeSpans?: { spans?: { spanId: Uint8Array; links?: RawLink[] }[] }[] }[];
    };
    const links = new Map<string, Link[]>();
    for (const resource of decoded.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) links.set(hex(span.spanId), linksOf(span.links));
      }
    }
    for (const span of readTraceRequest(decoded).spans) {
      spans.push({
        ...span,
        links: links.get(span.spanId) ?? [],
        serviceName: span.attributes['service.name'],
      });
    }
    response.writeHead(200, { 'content-type': 'application/x-protobuf' });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    server,
  };
}

interface RawLink {
  traceId: Uint8Array;
  spanId: Uint8Array;
  attributes?: { key: string; value: { stringValue?: string } }[];
}
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const linksOf = (links: RawLink[] = []): Link[] =>
  links.map((link) => ({
    traceId: hex(link.traceId),
    spanId: hex(link.spanId),
    attributes: Object.fromEntries(
      (link.attributes ?? []).map(({ key, value }) => [key, value.stringValue]),
    ),
  }));

export async function bytesOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An OpenAI-compatible chat completions stand-in: every verdict passes. */
export async function chatCompletions() {
  let calls = 0;
  const server = createServer(async (request, response) => {
    await bytesOf(request);
    calls += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `chatcmpl-${calls}`,
        model: 'grader-2025',
        choices: [
          {
            message: { role: 'assistant', content: '{"score": 0.9, "passed": true}' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 31, completion_tokens: 8 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => calls,
    server,
  };
}

export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}

/** One agent turn as an OTLP/JSON request: a GenAI agent span with its input and answer. */
export function agentTurn(traceId: string, spanId: string) {
  const messages = (role: string, content: string) =>
    JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
  const now = BigInt(Date.now()) * 1_000_000n;
  const attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'support',
    'gen_ai.input.messages': messages('user', 'How do I reset my password?'),
    'gen_ai.output.messages': messages('assistant', 'Use the link on the sign-in page.'),
  };
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'support-bot' } }] },
        scopeSpans: [
          {
            scope: { name: 'agent' },
            spans: [
              {
                traceId,
                spanId,
                name: 'invoke_agent support',
                kind: 1,
                startTimeUnixNano: String(now - 1_000_000_000n),
                endTimeUnixNano: String(now),
                attributes: Object.entries(attributes).map(([key, value]) => ({
                  key,
                  value: { stringValue: value },
                })),
              },
            ],
          },
        ],
      },
    ],
  };
}
