import { healthRoutes } from './health.js';
import { lifecycleRoutes } from './lifecycle.js';

// The route table: every route declared as data, once. The server binds each to its handler
// (src/api/routes), the HTTP client derives its calls and types from it (src/client), and
// `npm run docs:routes` writes the client's table of paths and docs/api.md's list from it.

export const routeContracts = { ...healthRoutes, ...lifecycleRoutes };
export type RouteContracts = typeof routeContracts;
export type RouteName = keyof RouteContracts;
export type { HttpMethod, RouteContract } from './contract.js';
