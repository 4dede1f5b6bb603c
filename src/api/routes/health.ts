import { z } from 'zod';
import type { Register } from './context.js';

// Liveness, readiness (the store and Temporal answer) and the OpenAPI document.

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.string()),
});

export const registerHealth: Register = (api, deps) => {
  api.get('/healthz', {
    config: { public: true },
    schema: {
      tags: ['health'],
      summary: 'The process is up',
      security: [],
      response: { 200: Health },
    },
    handler: async () => ({ status: 'ok' as const, checks: {} }),
  });

  api.get('/readyz', {
    config: { public: true },
    schema: {
      tags: ['health'],
      summary: 'The store and Temporal answer',
      security: [],
      response: { 200: Health, 503: Health },
    },
    handler: async (_request, reply) => {
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
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
    },
  });

  api.get('/openapi.json', {
    config: { public: true },
    schema: { hide: true },
    handler: async () => api.swagger(),
  });
};
