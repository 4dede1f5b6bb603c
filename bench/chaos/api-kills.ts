import { setTimeout as sleep } from 'node:timers/promises';
import type { Deployment } from './deployment.js';
import { seeded } from './seeded.js';

// Scenario 2: clients write through the API, each write under its own Idempotency-Key and
// retried with it until answered, while the `evalflow api` process is SIGKILLed and started
// again. Every write a client saw acknowledged must be in the log exactly once, and no write
// (acknowledged or not) may be in it twice.

export interface ApiKillFigures {
  kills: number;
  attempted: number;
  acknowledged: number;
  /** Acknowledged writes not in the log. */
  lost: number;
  /** Writes in the log more than once. */
  duplicated: number;
  /** Retries answered with a refusal (a retry of a write that went through must replay it). */
  refusedRetries: string[];
  /** Requests that failed (connection refused or reset, 5xx) and were retried. */
  retries: number;
}

interface Write {
  id: string;
  path: string;
  body: object;
}

export async function killApiWhileWriting(
  deployment: Deployment,
  options: { kills: number; clients: number; writesPerClient: number; seed?: number },
): Promise<ApiKillFigures> {
  const random = seeded(options.seed ?? 2);
  const key = await deployment.key('agent');
  const acknowledged = new Set<string>();
  const refusedRetries: string[] = [];
  let retries = 0;
  let attempted = 0;

  const send = async (write: Write) => {
    attempted += 1;
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${deployment.url}${write.path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': write.id,
          },
          body: JSON.stringify(write.body),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        if (response.status < 300) {
          acknowledged.add(write.id);
          return;
        }
        if (response.status < 500 && response.status !== 429) {
          refusedRetries.push(`${write.id} (attempt ${attempt + 1}): ${response.status} ${text}`);
          return;
        }
      } catch {
        // The API is down or died mid-request: retry with the same key.
      }
      retries += 1;
      await sleep(50 + Math.min(attempt, 10) * 50);
    }
  };

  // The clients write until every kill is done (and at least `writesPerClient` each).
  let killing = true;
  const clients = Array.from({ length: options.clients }, async (_, c) => {
    for (let i = 0; killing || i < options.writesPerClient; i++) {
      const thread = `c${c}-t${i}`;
      await send({ id: thread, path: '/v1/threads', body: { threadId: thread } });
      await send({
        id: `${thread}-m`,
        path: `/v1/threads/${thread}/messages`,
        body: { messageId: `${thread}-m`, role: 'ROLE_USER', content: `hello ${i}` },
      });
    }
  });
  let kills = 0;
  try {
    while (kills < options.kills) {
      await sleep(300 + random() * 1500);
      await deployment.kill('api');
      kills += 1;
      await sleep(random() * 500);
      await deployment.restart('api');
    }
  } finally {
    killing = false;
  }
  await Promise.all(clients);

  const events = await deployment.store.events({ workspace_id: 'ws', limit: 10_000_000 });
  const written = new Map<string, number>();
  for (const { event } of events) {
    const id =
      event.type === 'thread_created'
        ? (event as { thread_id: string }).thread_id
        : event.type === 'message_posted'
          ? (event as { message_id: string }).message_id
          : null;
    if (id !== null) written.set(id, (written.get(id) ?? 0) + 1);
  }
  return {
    kills,
    attempted,
    acknowledged: acknowledged.size,
    lost: [...acknowledged].filter((id) => written.get(id) !== 1).length,
    duplicated: [...written.values()].filter((n) => n > 1).length,
    refusedRetries,
    retries,
  };
}
