import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { ThreadParams } from '../contracts/params.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, type RouteDeps } from './context.js';

// The log as server-sent events: each event's `id` is its seq, so a client that reconnects with
// Last-Event-ID resumes after the last one it saw. Each `data` is the envelope as stored.

const tags = ['events'];
const Resume = z.object({
  /** Resume after this seq (Last-Event-ID, when both are given, wins). */
  after: z.coerce.number().int().min(0).optional(),
});

// Only the stream itself is text/event-stream: a refusal is JSON, as on every other route.
// Before OpenAPI 3.2 (no itemSchema), a stream's `schema` describes each of its events.
const ServerSentEvent = z.object({
  id: z.string().regex(/^\d+$/).describe("The event's seq, to resume from with Last-Event-ID"),
  event: z.string().describe('The event type'),
  data: z.string().describe('The event envelope, as JSON'),
});
const eventStream = {
  description: 'The events, as server-sent events (one envelope each)',
  content: { 'text/event-stream': { schema: ServerSentEvent } },
};

export const eventRoutes = defineRoutes({
  events: {
    method: 'GET',
    path: '/v1/events',
    allow: READERS,
    tags,
    summary: "The workspace's events as server-sent events, resumable with Last-Event-ID",
    query: Resume,
    answers: { 200: eventStream },
  },
  threadEvents: {
    method: 'GET',
    path: '/v1/threads/:threadId/events',
    allow: READERS,
    tags,
    summary: "One thread's events (its feedback included) as server-sent events",
    params: ThreadParams,
    query: Resume,
    answers: { 200: eventStream },
  },
});

export const registerEvents = bindRoutes(eventRoutes, (deps, api) => {
  // Open streams end when the server closes: a hijacked response would otherwise hold the
  // server (and a Ctrl-C of `evalflow start`) open for as long as its client stays connected.
  const open = new Set<() => void>();
  api.addHook('preClose', async () => {
    for (const end of open) end();
  });
  const streamed = (
    request: FastifyRequest,
    reply: FastifyReply,
    after?: number,
    thread?: string,
  ) => stream(deps, request, reply, open, after, thread);
  return {
    events: ({ query, request, reply }) => streamed(request, reply, query.after),
    threadEvents: ({ params, query, request, reply }) =>
      streamed(request, reply, query.after, params.threadId),
  };
});

async function stream(
  deps: RouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  open: Set<() => void>,
  after: number | undefined,
  thread_id?: string,
): Promise<undefined> {
  const lastEventId = Number(request.headers['last-event-id']);
  const from = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : (after ?? 0);
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  out.write(': evalflow events\n\n');
  const subscription = deps.store.subscribe(
    {
      workspace_id: callerOf(request).workspaceId,
      after: from,
      ...(thread_id ? { thread_id } : {}),
    },
    (envelope) => {
      out.write(
        `id: ${envelope.seq}\nevent: ${envelope.event.type}\ndata: ${JSON.stringify(envelope)}\n\n`,
      );
    },
  );
  // A comment now and then keeps proxies from closing an idle stream.
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), 15_000);
  const stop = () => {
    clearInterval(keepAlive);
    open.delete(end);
    void subscription.close();
  };
  const end = () => {
    stop();
    out.end();
  };
  open.add(end);
  request.raw.once('close', stop);
  subscription.done.catch(() => out.end()).finally(stop);
}
