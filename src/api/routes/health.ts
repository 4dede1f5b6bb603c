import { healthRoutes } from '../contracts/health.js';
import { bindRoutes } from './bind-routes.js';
import type { Register } from './context.js';

// Liveness, readiness (the store and Temporal answer; contracts/health.ts) and the OpenAPI
// document, which describes the routes rather than being one of the table.

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

export const registerHealth: Register = (api, deps) => {
  registerProbes(api, deps);
  api.get('/openapi.json', {
    config: { public: true },
    schema: { hide: true },
    handler: async () => api.swagger(),
  });
};
