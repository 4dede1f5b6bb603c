import fastifyPlugin from 'fastify-plugin';
import { type HttpObserver, UNMATCHED_ROUTE } from '../../metrics/index.js';

// Every answered request to the metrics, once it is sent (so it adds nothing to the answer's
// time): its method, the pattern of the route it matched and its status, and how long it took.

export const requestMetrics = fastifyPlugin<{ observer: HttpObserver }>(
  async (api, { observer }) => {
    api.addHook('onResponse', (request, reply, done) => {
      observer.answered(
        request.method,
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'evalflow-metrics' },
);
