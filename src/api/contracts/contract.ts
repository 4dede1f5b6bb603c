import type { z } from 'zod';
import type { PrincipalKind } from '../../wire/principals.js';

// A route as data: what the server registers, the OpenAPI document describes, the HTTP client
// calls and docs/api.md lists. Its zod schemas and words; each group of src/api/routes declares
// its routes with their handlers in one file, and the client takes them as types only.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An answer that is not one JSON body (server-sent events), as its OpenAPI response object. */
export interface StreamAnswer {
  description: string;
  content: Readonly<Record<string, { schema: z.ZodType }>>;
}

export interface RouteContract {
  method: HttpMethod;
  /** Fastify's form: `/v1/threads/:threadId/runs`. */
  path: string;
  /** Who may call it; `public` routes take no key at all. */
  allow: readonly PrincipalKind[] | 'public';
  tags: readonly string[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * Its answers by status (the first 2xx is the success; another is an answer too, as readiness's
   * 503). The refusals every keyed route may give are added when it is registered.
   */
  answers: Readonly<Record<number, z.ZodType | StreamAnswer>>;
  /** A refusal whose body says more than the others' (a promotion's evidence). */
  refusals?: Readonly<Record<number, z.ZodType>>;
}

/** Names each contract of a group, keeping every literal (method, path) in its type. */
export function defineRoutes<const Contracts extends Record<string, RouteContract>>(
  contracts: Contracts,
): Contracts {
  return contracts;
}

type Part = 'params' | 'query' | 'body';
type InputOf<C, P extends Part> = C extends { [K in P]: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;
type OutputOf<C, P extends Part> = C extends { [K in P]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** A query's fields as a caller gives them: a field read from text also takes a number or a boolean. */
type QueryFields<Q> = Q extends object
  ? { [K in keyof Q]: string extends Q[K] ? Q[K] | number | boolean : Q[K] }
  : Q;

/** What a caller sends: each part the contract has, as its schema's input. */
export type RouteInput<C extends RouteContract> = {
  [P in Part as C extends { [K in P]: z.ZodType } ? P : never]: P extends 'query'
    ? QueryFields<InputOf<C, P>>
    : InputOf<C, P>;
};
/** One part of what a caller sends (undefined when the route has none). */
export type RouteInputPart<C extends RouteContract, P extends Part> = InputOf<C, P>;

/** What a handler reads: each part as its schema's output (undefined when the route has none). */
export interface RouteParts<C extends RouteContract> {
  params: OutputOf<C, 'params'>;
  query: OutputOf<C, 'query'>;
  body: OutputOf<C, 'body'>;
}

type Answer<C extends RouteContract> = C['answers'][keyof C['answers']];
/** Any of its answers, as a handler gives it (a schema's input; nothing for a stream it wrote). */
export type AnswerInput<C extends RouteContract> =
  Answer<C> extends infer A ? (A extends z.ZodType ? z.input<A> : undefined) : never;
/** Any of its answers, as a caller reads it (a schema's output; nothing for a stream). */
export type AnswerOutput<C extends RouteContract> =
  Answer<C> extends infer A ? (A extends z.ZodType ? z.output<A> : undefined) : never;

/** The status a route answers with when it succeeds: its first 2xx. */
export function successStatus(contract: RouteContract): number {
  const status = Object.keys(contract.answers)
    .map(Number)
    .find((code) => code >= 200 && code < 300);
  if (status === undefined)
    throw new Error(`${contract.method} ${contract.path} has no 2xx answer`);
  return status;
}
