// One handler per Langfuse operation the server implements, by operationId. Each returns the
// status and body Langfuse answers with; the server validates both against the spec.
import { randomUUID } from 'node:crypto';
import { checkScoreBody } from './score-checks.js';
import type { ConfigCategory, LangfuseStore, StoredConfig, StoredScore } from './store.js';

export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HandlerContext {
  readonly store: LangfuseStore;
  readonly query: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The spec's problems with one ingestion event, checked alone. */
  readonly eventProblems: (event: unknown) => string[];
  /** Envelope ids already ingested, which Langfuse skips. */
  readonly seenEvents: Set<string>;
}

export type Handler = (context: HandlerContext) => Answer;

export function failure(status: number, message: string, error?: unknown): Answer {
  return { status, body: { message, error: error ?? message } };
}

const CONFIG_NAME = /^[A-Za-z0-9_ .()-]{1,35}$/;
const V3_GROUPS = new Set(['details', 'subject', 'annotation']);
const V3_UNSUPPORTED = ['value', 'valueMin', 'valueMax', 'queueId', 'authorUserId', 'experimentId'];

export const handlers: Record<string, Handler> = {
  ingestion_batch: ingest,
  scores_create: createScore,
  scoresV3_getManyV3: listScores,
  legacy_scoreV1_delete: deleteScore,
  scoreConfigs_create: createConfig,
  scoreConfigs_get: listConfigs,
  'scoreConfigs_get-by-id': getConfig,
  scoreConfigs_update: updateConfig,
};

/** 207 with an entry per event. Only score events are stored; other event types are accepted. */
function ingest({ store, body, eventProblems, seenEvents }: HandlerContext): Answer {
  const batch = (body as { batch: unknown[] }).batch;
  const successes: { id: string; status: number }[] = [];
  const errors: { id: string; status: number; message: string; error: unknown }[] = [];
  for (const event of batch) {
    const envelope = (typeof event === 'object' && event !== null ? event : {}) as Record<
      string,
      unknown
    >;
    const id = typeof envelope.id === 'string' ? envelope.id : '';
    const problems = eventProblems(event);
    const timestamp = typeof envelope.timestamp === 'string' ? envelope.timestamp : '';
    if (Number.isNaN(Date.parse(timestamp))) problems.push('timestamp: not a date-time');
    const scoreBody = (envelope.body ?? {}) as Record<string, unknown>;
    const checked = envelope.type === 'score-create' ? checkScoreBody(scoreBody, undefined) : null;
    if (checked && !checked.ok) problems.push(...checked.problems);
    if (problems.length > 0) {
      errors.push({ id, status: 400, message: 'Invalid request data', error: problems });
      continue;
    }
    successes.push({ id, status: 201 });
    if (seenEvents.has(id)) continue;
    seenEvents.add(id);
    // Without body.id the event is reported a success and never queued (langfuse#14797).
    if (checked?.ok && typeof scoreBody.id === 'string') {
      store.enqueue({ kind: 'upsert', score: { ...checked.score, id: scoreBody.id, timestamp } });
    }
  }
  return { status: 207, body: { successes, errors } };
}

/** `POST /scores`: the same checks, a random id if none, and "now" as the timestamp. */
function createScore({ store, body }: HandlerContext): Answer {
  const request = body as Record<string, unknown>;
  const checked = checkScoreBody(request, request.source);
  if (!checked.ok) return failure(400, 'Invalid request data', checked.problems);
  const id = typeof request.id === 'string' ? request.id : randomUUID();
  const timestamp = new Date(store.now()).toISOString();
  store.enqueue({ kind: 'upsert', score: { ...checked.score, id, timestamp } });
  return { status: 200, body: { id } };
}

/** 202 and a queued delete, as Langfuse answers (its spec says 204); 404 for an unknown id. */
function deleteScore({ store, params }: HandlerContext): Answer {
  const id = params.scoreId ?? '';
  if (!store.rows().some((row) => row.id === id)) return failure(404, 'Score not found');
  store.enqueue({ kind: 'delete', id });
  return { status: 202, body: { message: 'Score deletion queued successfully' } };
}

function listScores({ store, query }: HandlerContext): Answer {
  const unsupported = V3_UNSUPPORTED.filter((key) => query[key] !== undefined);
  if (unsupported.length > 0) {
    return failure(400, `the test server does not implement ${unsupported.join(', ')}`);
  }
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return failure(400, 'limit must be between 1 and 100');
  }
  const groups = (query.fields ?? '').split(',').filter((group) => group !== '');
  const unknown = groups.filter((group) => !V3_GROUPS.has(group));
  if (unknown.length > 0) return failure(400, `unknown field groups: ${unknown.join(', ')}`);
  if (query.sessionId !== undefined && query.traceId !== undefined) {
    return failure(400, 'traceId and sessionId are mutually exclusive');
  }
  if (query.observationId !== undefined && query.traceId === undefined) {
    return failure(400, 'observationId needs traceId');
  }
  const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
  if (offset === null) return failure(400, 'invalid cursor');

  const listed = (key: string) => (query[key] === undefined ? null : query[key].split(','));
  const filters: [string[] | null, (row: StoredScore) => string | null][] = [
    [listed('id'), (row) => row.id],
    [listed('name'), (row) => row.name],
    [listed('environment'), (row) => row.environment],
    [listed('configId'), (row) => row.configId],
    [listed('traceId'), (row) => row.traceId],
    [listed('sessionId'), (row) => row.sessionId],
    [listed('observationId'), (row) => row.observationId],
    [listed('dataType')?.map((t) => t.toUpperCase()) ?? null, (row) => row.dataType],
    [listed('source')?.map((s) => s.toUpperCase()) ?? null, (row) => row.source],
  ];
  const from = query.fromTimestamp === undefined ? null : Date.parse(query.fromTimestamp);
  const to = query.toTimestamp === undefined ? null : Date.parse(query.toTimestamp);
  const rows = store
    .rows()
    .filter((row) =>
      filters.every(([values, field]) => !values || values.includes(field(row) ?? '')),
    )
    .filter((row) => from === null || Date.parse(row.timestamp) >= from)
    .filter((row) => to === null || Date.parse(row.timestamp) < to)
    // Newest first, as Langfuse lists; the id breaks ties so pages are stable.
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || a.id.localeCompare(b.id));
  const page = rows.slice(offset, offset + limit);
  const next = offset + limit < rows.length ? encodeCursor(offset + limit) : undefined;
  return {
    status: 200,
    body: {
      data: page.map((row) => scoreV3(row, store.projectId, new Set(groups))),
      meta: { limit, ...(next && { cursor: next }) },
    },
  };
}

function scoreV3(row: StoredScore, projectId: string, groups: ReadonlySet<string>) {
  return {
    id: row.id,
    projectId,
    name: row.name,
    dataType: row.dataType,
    value: row.dataType === 'BOOLEAN' ? row.value === 1 : row.value,
    source: row.source,
    timestamp: row.timestamp,
    environment: row.environment,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(groups.has('details') && {
      comment: row.comment,
      configId: row.configId,
      metadata: row.metadata,
    }),
    ...(groups.has('subject') && { subject: subject(row) }),
    ...(groups.has('annotation') && { authorUserId: null, queueId: null }),
  };
}

function subject(row: StoredScore) {
  if (row.observationId !== null) {
    return { kind: 'observation', id: row.observationId, traceId: row.traceId };
  }
  if (row.traceId !== null) return { kind: 'trace', id: row.traceId };
  if (row.sessionId !== null) return { kind: 'session', id: row.sessionId };
  return { kind: 'experiment', id: row.datasetRunId ?? '' };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Number.isInteger(offset) && offset >= 0 ? offset : null;
  } catch {
    return null;
  }
}

function createConfig({ store, body }: HandlerContext): Answer {
  const request = body as Record<string, unknown>;
  const dataType = request.dataType as StoredConfig['dataType'];
  const problems = configProblems(request, dataType);
  if (dataType === 'BOOLEAN' && request.categories != null) {
    problems.push('categories: generated for BOOLEAN configs, cannot be passed');
  }
  if (problems.length > 0) return failure(400, 'Invalid request data', problems);
  const config = store.addConfig({
    name: request.name as string,
    dataType,
    isArchived: false,
    ...numberField(request, 'minValue'),
    ...numberField(request, 'maxValue'),
    ...(dataType === 'BOOLEAN'
      ? {
          categories: [
            { label: 'True', value: 1 },
            { label: 'False', value: 0 },
          ],
        }
      : request.categories
        ? { categories: request.categories as ConfigCategory[] }
        : {}),
    ...(typeof request.description === 'string' && { description: request.description }),
  });
  return { status: 200, body: config };
}

function listConfigs({ store, query }: HandlerContext): Answer {
  const page = query.page === undefined ? 1 : Number(query.page);
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (!Number.isInteger(page) || page < 1) return failure(400, 'page starts at 1');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return failure(400, 'limit must be between 1 and 100');
  }
  // Newest first, archived included.
  const configs = store.configs().reverse();
  return {
    status: 200,
    body: {
      data: configs.slice((page - 1) * limit, page * limit),
      meta: {
        page,
        limit,
        totalItems: configs.length,
        totalPages: Math.ceil(configs.length / limit),
      },
    },
  };
}

function getConfig({ store, params }: HandlerContext): Answer {
  const config = store.config(params.configId ?? '');
  return config ? { status: 200, body: config } : failure(404, 'Score config not found');
}

function updateConfig({ store, params, body }: HandlerContext): Answer {
  const config = store.config(params.configId ?? '');
  if (!config) return failure(404, 'Score config not found');
  const request = body as Record<string, unknown>;
  const merged = { ...config, ...withoutNulls(request) };
  const problems = configProblems(merged, config.dataType);
  if (problems.length > 0) return failure(400, 'Invalid request data', problems);
  if (typeof request.isArchived === 'boolean') config.isArchived = request.isArchived;
  if (typeof request.name === 'string') config.name = request.name;
  if (typeof request.description === 'string') config.description = request.description;
  if (typeof request.minValue === 'number') config.minValue = request.minValue;
  if (typeof request.maxValue === 'number') config.maxValue = request.maxValue;
  if (Array.isArray(request.categories)) config.categories = request.categories;
  config.updatedAt = new Date(store.now()).toISOString();
  return { status: 200, body: config };
}

/** Langfuse's rules for a config: name, categories for categories only, bounds for numbers. */
function configProblems(
  config: Record<string, unknown>,
  dataType: StoredConfig['dataType'],
): string[] {
  const problems: string[] = [];
  if (typeof config.name !== 'string' || !CONFIG_NAME.test(config.name)) {
    problems.push(
      'name: 1 to 35 letters, digits, underscores, spaces, periods, parentheses, hyphens',
    );
  }
  const categories = config.categories as ConfigCategory[] | undefined;
  if (categories !== undefined && dataType !== 'CATEGORICAL' && dataType !== 'BOOLEAN') {
    problems.push(`categories: only CATEGORICAL configs take categories`);
  }
  if (dataType === 'CATEGORICAL') {
    if (!categories || categories.length === 0) problems.push('categories: at least one');
    else {
      if (new Set(categories.map((c) => c.label)).size !== categories.length) {
        problems.push('categories: labels must be unique');
      }
      if (new Set(categories.map((c) => c.value)).size !== categories.length) {
        problems.push('categories: values must be unique');
      }
    }
  }
  const hasBounds = typeof config.minValue === 'number' || typeof config.maxValue === 'number';
  if (hasBounds && dataType !== 'NUMERIC') problems.push('minValue/maxValue: NUMERIC configs only');
  if (
    typeof config.minValue === 'number' &&
    typeof config.maxValue === 'number' &&
    config.maxValue <= config.minValue
  ) {
    problems.push('maxValue must be greater than minValue');
  }
  return problems;
}

function numberField(request: Record<string, unknown>, key: 'minValue' | 'maxValue') {
  return typeof request[key] === 'number' ? { [key]: request[key] as number } : {};
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}
