import type { RouteContracts } from '../api/contracts/index.js';

// Written by `npm run docs:routes` from the route table (src/api/contracts); do not edit. The
// client loads nothing of the server, so it reads each route's method and path from here; the
// type below makes the compiler check them against the contracts too.

type RouteTable = {
  [Name in keyof RouteContracts]: Pick<RouteContracts[Name], 'method' | 'path'> & {
    /** Statuses that are answers rather than refusals, when not only 2xx. */
    answers?: readonly number[];
  };
};

export const ROUTE_TABLE = {
  health: { method: 'GET', path: '/healthz' },
  ready: { method: 'GET', path: '/readyz', answers: [200, 503] },
  createThread: { method: 'POST', path: '/v1/threads' },
  endThread: { method: 'POST', path: '/v1/threads/:threadId/end' },
  startRun: { method: 'POST', path: '/v1/threads/:threadId/runs' },
  pauseRun: { method: 'POST', path: '/v1/runs/:runId/pause' },
  endRun: { method: 'POST', path: '/v1/runs/:runId/end' },
  postMessage: { method: 'POST', path: '/v1/threads/:threadId/messages' },
  putArtifact: { method: 'PUT', path: '/v1/artifacts/:artifactId' },
  archiveArtifact: { method: 'POST', path: '/v1/artifacts/:artifactId/archive' },
} as const satisfies RouteTable;
