import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventRoutes } from '../contracts/events.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, type RouteDeps } from './context.js';

// The log as server-sent events (contracts/events.ts), each resumable with Last-Event-ID.

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
