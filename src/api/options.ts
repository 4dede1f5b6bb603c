import type { Client } from '@temporalio/client';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDefinition, LogFormat, TraceSettings } from '../config/index.js';
import type { HttpObserver } from '../metrics/index.js';
import type { ScoreConfigStore } from '../scores/index.js';
import type { Store } from '../store/index.js';
import type { PrincipalKind } from '../wire/principals.js';

// What the API is built from and what its routes see: the one module the server, its plugins
// and its routes all take their types from.

export interface ApiOptions {
  store: Store;
  app: AppDefinition;
  /** Temporal, for reviews, re-evaluation and readiness. */
  temporal: { client: Client; taskQueue: string };
  /** The sink's score configs, which the score-config routes read and change. */
  scoreConfigs: ScoreConfigStore;
  /** Called after a route archived a config, so this process's checks read the sink afresh. */
  onScoreConfigsChanged?: () => void;
  /** Largest request body, in bytes (default 2 MiB). */
  bodyLimitBytes?: number;
  /** Requests per minute per key (default 1200). */
  rateLimitPerMinute?: number;
  /** The OTLP receiver's settings (default: `loadConfig`'s defaults). */
  traces?: TraceSettings;
  /**
   * The request log, to stdout (default) or a stream, or none (false): JSON lines with each
   * request's id (`json`, the default), or one readable line per answered request (`text`).
   * The Authorization header and the Idempotency-Key are never logged.
   */
  logger?: boolean | { stream?: NodeJS.WritableStream; format?: LogFormat };
  /** Told of every answered request, by route pattern and status (the process's metrics). */
  metrics?: HttpObserver;
  now?: () => Date;
  /** The reviewers' page's built files, served at /ui/ (default: this package's dist/ui). */
  uiRoot?: string;
}

export const API_DEFAULTS = { bodyLimitBytes: 2 * 1024 * 1024, rateLimitPerMinute: 1200 };

/** What a route may do, read by the hooks: who may call it, or that anyone may. */
export interface RouteAccess {
  allow?: readonly PrincipalKind[];
  public?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig extends RouteAccess {}
}

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every route is registered with. */
export type RouteDeps = ApiOptions & { now: () => Date };
export type Register = (api: Api, deps: RouteDeps) => void;
