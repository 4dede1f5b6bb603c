import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RouteContract, routeContracts } from '../../src/api/routes/table.js';

// The Python client (clients/python) against the route table, read as text: every route of the
// table is one of its `Route`s, by method and path, and each of its calls of that route sends the
// contract's params, only the contract's query and body fields, and every field the body needs.

const ROUTES_PY = 'clients/python/src/evalflow_client/routes.py';

interface PythonRoute {
  constant: string;
  method: string;
  path: string;
}

interface PythonCall {
  path: string[] | null;
  query: string[] | null;
  body: string[] | null;
}

function pythonRoutes(source: string): PythonRoute[] {
  const declared = /^(\w+)(?::[^=\n]+)? = Route\(\s*"(\w+)",\s*"([^"]+)"/gm;
  return [...source.matchAll(declared)].map(([, constant = '', method = '', path = '']) => ({
    constant,
    method,
    path,
  }));
}

/** The text between an opening bracket at `from` and its match. */
function bracketed(text: string, from: number): string {
  let depth = 0;
  for (let at = from; at < text.length; at++) {
    if ('([{'.includes(text[at] as string)) depth++;
    if (')]}'.includes(text[at] as string)) depth--;
    if (depth === 0) return text.slice(from + 1, at);
  }
  throw new Error(`unclosed bracket at ${from}`);
}

/** The keys a dict literal names at its top level (`{"runId": run_id, ...}`). */
function topLevelKeys(dict: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let at = 0; at < dict.length; at++) {
    const char = dict[at] as string;
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    else if (char === '"' && depth === 0) {
      const key = /^"(\w+)"\s*:/.exec(dict.slice(at));
      if (key) keys.push(key[1] as string);
      at = dict.indexOf('"', at + 1);
    }
  }
  return keys;
}

/** A keyword argument's dict literal's keys; null when it is absent or not a literal. */
function keywordKeys(args: string, keyword: string): string[] | null {
  const at = args.search(new RegExp(`\\b${keyword}=\\{`));
  if (at < 0) return null;
  return topLevelKeys(bracketed(args, args.indexOf('{', at)));
}

function pythonCalls(source: string, constant: string): PythonCall[] {
  return [...source.matchAll(new RegExp(`\\b${constant}\\.call\\(`, 'g'))].map((match) => {
    const args = bracketed(source, (match.index ?? 0) + match[0].length - 1).trim();
    return {
      path: args.startsWith('{') ? topLevelKeys(bracketed(args, 0)) : null,
      query: keywordKeys(args, 'query'),
      body: keywordKeys(args, 'body'),
    };
  });
}

/** An object schema's fields, each with whether it may be left out. */
function fieldsOf(schema: z.ZodType | undefined): Map<string, boolean> {
  let object: z.ZodType | undefined = schema;
  while (
    object instanceof z.ZodOptional ||
    object instanceof z.ZodNullable ||
    object instanceof z.ZodDefault
  ) {
    object = object.unwrap() as z.ZodType;
  }
  if (object instanceof z.ZodUnion) return fieldsOfEither(object.options as z.ZodType[]);
  if (!(object instanceof z.ZodObject)) return new Map();
  return new Map(
    Object.entries(object.shape as Record<string, z.ZodType>).map(([name, field]) => [
      name,
      field.safeParse(undefined).success,
    ]),
  );
}

/** A union's fields: any option's, needed only when every option needs it. */
function fieldsOfEither(options: z.ZodType[]): Map<string, boolean> {
  const each = options.map(fieldsOf);
  const names = new Set(each.flatMap((fields) => [...fields.keys()]));
  return new Map([...names].map((name) => [name, each.some((fields) => fields.get(name) ?? true)]));
}

const documentPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const sorted = (names: Iterable<string>) => [...names].sort();

/** What the Python client gets wrong about the route table, one line each (none: it agrees). */
function disagreements(source: string, contracts: Record<string, RouteContract>): string[] {
  const declared = pythonRoutes(source);
  const problems: string[] = [];
  for (const [name, contract] of Object.entries(contracts)) {
    const where = `${name} (${contract.method} ${documentPath(contract.path)})`;
    const route = declared.find(
      (r) => r.method === contract.method && r.path === documentPath(contract.path),
    );
    if (route === undefined) {
      problems.push(`${where}: no Route in routes.py`);
      continue;
    }
    const params = sorted(fieldsOf(contract.params).keys());
    const query = fieldsOf(contract.query);
    const body = fieldsOf(contract.body);
    const needed = [...body].filter(([, optional]) => !optional).map(([field]) => field);
    for (const call of pythonCalls(source, route.constant)) {
      const sent = sorted(call.path ?? []);
      if (sent.join() !== params.join()) {
        problems.push(`${where}: path params ${sent.join(', ')}, not ${params.join(', ')}`);
      }
      for (const field of call.query ?? []) {
        if (!query.has(field)) problems.push(`${where}: query field ${field} is not the route's`);
      }
      for (const field of call.body ?? []) {
        if (!body.has(field)) problems.push(`${where}: body field ${field} is not the route's`);
      }
      const missing = call.body === null ? [] : needed.filter((f) => !call.body?.includes(f));
      for (const field of missing) problems.push(`${where}: body field ${field} is not sent`);
    }
  }
  return problems;
}

const source = readFileSync(ROUTES_PY, 'utf8');

describe('the Python client and the route table', () => {
  it('has every route of the table, with its method, path, params and body fields', () => {
    expect(disagreements(source, routeContracts)).toEqual([]);
  });

  it('names a route it lacks', () => {
    const without = source.replace(/^PAUSE_RUN = Route\(.*$/m, '');
    expect(disagreements(without, routeContracts)).toEqual([
      'pauseRun (POST /v1/runs/{runId}/pause): no Route in routes.py',
    ]);
  });

  it('names a route under another method or path', () => {
    const moved = source.replace(
      'Route("PUT", "/v1/artifacts/{artifactId}"',
      'Route("POST", "/v1/artifacts/{artifactId}"',
    );
    expect(disagreements(moved, routeContracts)).toEqual([
      'putArtifact (PUT /v1/artifacts/{artifactId}): no Route in routes.py',
    ]);
  });

  it('names a body field the route does not take, one it needs and is not sent, and a wrong param', () => {
    const renamed = source
      .replace(
        'body={"status": status, "endedAt": ended_at}',
        'body={"state": status, "endedAt": ended_at}',
      )
      .replace(
        'END_THREAD.call({"threadId": thread_id})',
        'END_THREAD.call({"thread": thread_id})',
      );
    expect(disagreements(renamed, routeContracts)).toEqual([
      'endThread (POST /v1/threads/{threadId}/end): path params thread, not threadId',
      "endRun (POST /v1/runs/{runId}/end): body field state is not the route's",
      'endRun (POST /v1/runs/{runId}/end): body field status is not sent',
    ]);
  });
});
