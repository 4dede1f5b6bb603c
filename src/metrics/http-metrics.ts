import { Counter, Histogram, type Registry } from 'prom-client';
import type { HttpObserver } from './observers.js';

// The HTTP API's metrics: requests by route pattern and status, and their durations. Label
// values stay bounded: the route is the pattern a request matched (`unmatched` for none), never
// its URL, and the method and status come from a short list.

/** Most answers take milliseconds; a slow store or Temporal stretches them to seconds. */
const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The route label of a request that matched no route (a 404 before any handler). */
export const UNMATCHED_ROUTE = 'unmatched';

export function httpMetrics(registry: Registry): HttpObserver {
  const requests = new Counter({
    name: 'evalflow_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'evalflow_http_request_duration_seconds',
    help: 'How long the API took to answer, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: REQUEST_SECONDS,
    registers: [registry],
  });
  // The label children by key: a request costs a map lookup, not prom-client's label hashing.
  const counted = new Map<string, Counter.Internal>();
  const timed = new Map<string, Histogram.Internal<'method' | 'route'>>();
  return {
    answered(method, route, status, elapsed) {
      const routeKey = `${method} ${route}`;
      let timer = timed.get(routeKey);
      if (timer === undefined) {
        timer = seconds.labels({ method, route });
        timed.set(routeKey, timer);
      }
      timer.observe(elapsed);
      const statusKey = `${routeKey} ${status}`;
      let counter = counted.get(statusKey);
      if (counter === undefined) {
        counter = requests.labels({ method, route, status: String(status) });
        counted.set(statusKey, counter);
      }
      counter.inc();
    },
  };
}
