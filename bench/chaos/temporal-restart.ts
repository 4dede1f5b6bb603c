import { setTimeout as sleep } from 'node:timers/promises';
import type { Deployment } from './deployment.js';

// Scenario 3: a re-evaluation of many artifact versions through the API, and the Temporal dev
// server SIGKILLed and started again on the same state file part-way through. The re-evaluation
// must complete, and every version be evaluated exactly once.

export interface TemporalRestartFigures {
  versions: number;
  /** Progress when the server was killed. */
  doneAtCrash: number;
  done: number;
  /** Versions with no verdict, and with more than one. */
  missing: number;
  duplicated: number;
  /** Seconds from the restart to the re-evaluation's end. */
  recoverySeconds: number;
}

async function call(
  deployment: Deployment,
  key: string,
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${deployment.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : JSON.parse(text) };
}

export async function restartTemporalDuringReevaluation(
  deployment: Deployment,
  options: { versions: number; crashAtFraction?: number; timeoutMs?: number },
): Promise<TemporalRestartFigures> {
  const key = await deployment.key('system');
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const i = next++;
        if (i >= options.versions) return;
        const put = await call(deployment, key, 'PUT', `/v1/artifacts/doc${i}`, {
          kind: 'report',
          data: i % 3 === 0 ? '{"valid": true}' : { n: i },
        });
        if (put.status !== 200)
          throw new Error(`PUT doc${i}: ${put.status} ${JSON.stringify(put.body)}`);
      }
    }),
  );
  const started = await call(deployment, key, 'POST', '/v1/reevaluations', {
    selector: { kind: 'report' },
    evaluators: ['json_validity@1'],
  });
  if (started.status !== 201) throw new Error(`POST /v1/reevaluations: ${started.status}`);
  const id = started.body.id as string;
  const progress = async () => {
    try {
      const reply = await call(deployment, key, 'GET', `/v1/reevaluations/${id}`);
      return reply.status === 200 ? (reply.body as { total: number; done: number }) : null;
    } catch {
      return null; // the API waits on Temporal, which is down
    }
  };

  const crashAt = Math.floor(options.versions * (options.crashAtFraction ?? 0.3));
  let doneAtCrash = 0;
  for (;;) {
    const now = await progress();
    if (now && now.done >= crashAt) {
      doneAtCrash = now.done;
      break;
    }
    await sleep(100);
  }
  await deployment.crashTemporal();
  const restarted = Date.now();
  const deadline = restarted + (options.timeoutMs ?? 600_000);
  let done = 0;
  while (Date.now() < deadline) {
    const now = await progress();
    if (now) done = now.done;
    if (now && now.done >= now.total) break;
    await sleep(250);
  }
  const recoverySeconds = Number(((Date.now() - restarted) / 1000).toFixed(1));

  const events = await deployment.store.events({ workspace_id: 'ws', limit: 10_000_000 });
  const verdicts = new Map<string, number>();
  for (const { event } of events) {
    if (event.type !== 'feedback_given' || event.feedback_type !== 'json_validity') continue;
    const target = JSON.stringify(event.target);
    verdicts.set(target, (verdicts.get(target) ?? 0) + 1);
  }
  const ledger = (await deployment.store.ledger.evaluations('ws')).filter((entry) =>
    entry.participant.includes('json_validity'),
  );
  return {
    versions: options.versions,
    doneAtCrash,
    done,
    missing: Math.max(0, options.versions - ledger.length),
    duplicated: [...verdicts.values()].filter((n) => n > 1).length,
    recoverySeconds,
  };
}
