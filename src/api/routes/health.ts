import { z } from 'zod';
import { defineRoutes } from '../contracts/contract.js';
import { bindRoutes } from './bind-routes.js';
import type { Register } from './context.js';

// Liveness and readiness (the store and Temporal answer): no key needed.

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.string()),
});

const tags = ['health'];

export const healthRoutes = defineRoutes({
  health: {
    method: 'GET',
    path: '/healthz',
    allow: 'public',
    tags,
    summary: 'The process is up',
    answers: { 200: Health },
  },
  ready: {
    method: 'GET',
    path: '/readyz',
    allow: 'public',
    tags,
    summary: 'The store and Temporal answer',
    answers: { 200: Health, 503: Health },
  },
});

const registerProbes = bindRoutes(healthRoutes, {
  health: async () => ({ status: 'ok' as const, checks: {} }),
  ready: async ({ reply, deps }) => {
    const checks: Record<string, string> = {};
    const probe = async (name: string, work: () => Promise<unknown>) => {
      try {
        await work();
        checks[name] = 'ok';
      } catch (error) {
        checks[name] = (error as Error).message.split('\n')[0] ?? 'failed';
      }
    };
    await probe('store', () => deps.store.head('evalflow-readiness'));
    await probe('temporal', () => deps.temporal.client.workflowService.getSystemInfo({}));
    const ready = Object.values(checks).every((check) => check === 'ok');
    reply.code(ready ? 200 : 503);
    return { status: ready ? ('ok' as const) : ('unavailable' as const), checks };
  },
});

// The OpenAPI document is served beside the probes: it describes the routes rather than being
// one of the table.
export const registerHealth: Register = (api, deps) => {
  registerProbes(api, deps);
  api.get('/openapi.json', {
    config: { public: true },
    schema: { hide: true },
    handler: async () => api.swagger(),
  });
};
