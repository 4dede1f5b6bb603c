import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LangfuseClient } from '@langfuse/client';
import type { OpenAPIBackend, Operation } from 'openapi-backend';
import { type Answer, failure, handlers } from './handlers.js';
import { langfuseSpec } from './spec.js';
import {
  type DroppedScore,
  type DropRule,
  type IgnoreDeletesRule,
  LangfuseStore,
  type StoredConfig,
  type StoredScore,
} from './store.js';

export interface LangfuseTestServerOptions {
  readonly publicKey?: string;
  readonly secretKey?: string;
  readonly projectId?: string;
  /** The server's clock, in epoch milliseconds; moves the visibility lag. `Date.now` by default. */
  readonly now?: () => number;
  /** How long after acceptance a write becomes visible; 0 by default. */
  readonly lagMs?: number;
  /** Scores lost after acceptance: a fraction of ids (by hash) or a predicate. */
  readonly drop?: DropRule | null;
  /** Deletes answered 202 and never applied: a fraction of ids (by hash) or a predicate. */
  readonly ignoreDeletes?: IgnoreDeletesRule | null;
}

/** A fault for the next request (of `operationId`, when given); faults are used in order. */
export interface Fault {
  readonly operationId?: string;
  /** Answer with this status instead, such as 503 or 429. */
  readonly status?: number;
  /** With status 429: the `Retry-After` header, in seconds. */
  readonly retryAfterSeconds?: number;
  /** Hold the answer this long (real time), for the client to time out; then answer 504. */
  readonly timeoutMs?: number;
  /** Carry the request out before failing, as when only the answer is lost. */
  readonly applied?: boolean;
  /** For an ingestion batch: answer 207 with every event refused with this status, storing none. */
  readonly eventStatus?: number;
  /**
   * With eventStatus, the refusals as Langfuse may also word them: its spec leaves `message`
   * and `error` optional (null leaves either out), and an answer may name an id not sent.
   */
  readonly eventMessage?: string | null;
  readonly eventError?: unknown;
  readonly eventId?: string;
}

/**
 * Faults at random: each request without a queued fault gets one of `faults` with probability
 * `fraction` (`random` is seedable, so a run repeats).
 */
export interface RandomFaults {
  readonly fraction: number;
  readonly faults: readonly Fault[];
  readonly random?: () => number;
}

export interface RequestRecord {
  readonly operationId: string;
  readonly status: number;
  /** The request body as sent (parsed JSON), so a test can check what was left out. */
  readonly body: unknown;
}

/** Spec ingestion limit: a larger body gets 413. */
const MAX_BATCH_BYTES = 3_500_000;

/** A request as openapi-backend routes and validates it. */
interface SpecRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export class LangfuseTestServer {
  readonly publicKey: string;
  readonly secretKey: string;
  readonly #store: LangfuseStore;
  readonly #faults: Fault[] = [];
  #randomFaults: RandomFaults | null = null;
  #randomFaultCount = 0;
  readonly #requests: RequestRecord[] = [];
  readonly #violations: string[] = [];
  readonly #seenEvents = new Set<string>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #server: Server | null = null;
  #spec: OpenAPIBackend | null = null;
  #url = '';

  constructor(options: LangfuseTestServerOptions = {}) {
    this.publicKey = options.publicKey ?? 'pk-lf-evalflow-test';
    this.secretKey = options.secretKey ?? 'sk-lf-evalflow-test';
    this.#store = new LangfuseStore(
      options.projectId ?? 'evalflow-test-project',
      options.now ?? Date.now,
      options.lagMs ?? 0,
      options.drop ?? null,
      options.ignoreDeletes ?? null,
    );
  }

  /** Starts a server on a free loopback port. */
  static async start(options: LangfuseTestServerOptions = {}): Promise<LangfuseTestServer> {
    const server = new LangfuseTestServer(options);
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    this.#spec = await langfuseSpec();
    const server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        this.#violations.push(`the test server failed: ${String(error)}`);
        if (!response.headersSent) send(response, failure(500, 'test server error'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return this.#url;
  }

  /** A real `@langfuse/client` pointed at this server. */
  client(): LangfuseClient {
    return new LangfuseClient({
      publicKey: this.publicKey,
      secretKey: this.secretKey,
      baseUrl: this.#url,
    });
  }

  setLag(ms: number): void {
    this.#store.lagMs = ms;
  }

  setDrop(rule: DropRule | null): void {
    this.#store.drop = rule;
  }

  setIgnoreDeletes(rule: IgnoreDeletesRule | null): void {
    this.#store.ignoreDeletes = rule;
  }

  injectFaults(...faults: Fault[]): void {
    this.#faults.push(...faults);
  }

  /** Faults for a fraction of the requests from now on; `null` stops them. */
  setRandomFaults(rule: RandomFaults | null): void {
    this.#randomFaults = rule;
  }

  /** How many requests a random fault was applied to. */
  randomFaultCount(): number {
    return this.#randomFaultCount;
  }

  /** Stored rows visible now (due writes are applied first), in the order first written. */
  scores(): StoredScore[] {
    this.#store.applyDue();
    return this.#store.rows();
  }

  /** Accepted scores that were never stored, with why. */
  dropped(): DroppedScore[] {
    this.#store.applyDue();
    return this.#store.dropped();
  }

  /** Ids of accepted deletes that were never applied, once per delete. */
  ignoredDeletes(): string[] {
    this.#store.applyDue();
    return this.#store.ignoredDeletes();
  }

  /** Writes accepted but not yet visible. */
  pending(): number {
    this.#store.applyDue();
    return this.#store.pending();
  }

  configs(): StoredConfig[] {
    return this.#store.configs();
  }

  /** Every request answered, in order; of one operation when given. */
  requests(operationId?: string): RequestRecord[] {
    return this.#requests.filter((r) => operationId === undefined || r.operationId === operationId);
  }

  /**
   * Answers of this server that broke the spec, and its own failures; tests expect none. A
   * request that breaks the spec is not listed: it is answered 400, as Langfuse would.
   */
  violations(): string[] {
    return [...this.#violations];
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const spec = this.#spec as OpenAPIBackend;
    const raw = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const method = request.method ?? 'GET';
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      return send(response, failure(400, 'Invalid JSON body'));
    }
    const specRequest: SpecRequest = {
      method,
      path: url.pathname,
      query,
      headers: request.headers,
      body,
    };
    const operation = spec.matchOperation(specRequest as never);
    if (!operation?.operationId) return send(response, failure(404, 'Not found'));
    const operationId = operation.operationId;
    const answer = await this.#answer(operation, specRequest, raw.length);
    this.#requests.push({ operationId, status: answer.status, body });
    const checked = spec.validateResponse(answer.body, operation, answer.status);
    if (!checked.valid) {
      this.#violations.push(
        `${operationId} answered ${answer.status} against the spec: ${JSON.stringify(checked.errors)}`,
      );
      return send(response, failure(500, 'test server answer broke the spec'));
    }
    send(response, answer);
  }

  async #answer(operation: Operation, specRequest: SpecRequest, size: number): Promise<Answer> {
    const spec = this.#spec as OpenAPIBackend;
    const { query, body } = specRequest;
    const operationId = operation.operationId as string;
    const fault = this.#takeFault(operationId);
    if (fault && !fault.applied) return this.#fail(fault, body);
    const auth = this.#authorize(specRequest.headers.authorization);
    if (auth) return auth;
    if (operationId === 'ingestion_batch' && size > MAX_BATCH_BYTES) {
      return failure(413, 'Request body too large: batches are limited to 3.5 MB');
    }
    this.#store.applyDue();
    const validate = (requestBody: unknown) =>
      spec.validateRequest(
        { ...specRequest, query: { ...query }, body: requestBody } as never,
        operation,
      );
    const whole = validate(body);
    const isBatch =
      operationId === 'ingestion_batch' && Array.isArray((body as { batch?: unknown })?.batch);
    // Langfuse answers a bad event with its own entry in a 207, not with a 400: a batch that
    // fails the spec is checked again as an envelope, then event by event.
    if (!whole.valid && !(isBatch && validate({ ...(body as object), batch: [] }).valid)) {
      return failure(400, 'Invalid request data', whole.errors);
    }
    const handler = handlers[operationId];
    if (!handler) return failure(501, `the test server does not implement ${operationId}`);
    const params = spec.router.parseRequest(specRequest as never, operation).params as Record<
      string,
      string
    >;
    const answer = handler({
      store: this.#store,
      query,
      params,
      body,
      seenEvents: this.#seenEvents,
      eventProblems: (event) => {
        if (whole.valid) return [];
        const errors = validate({ batch: [event] }).errors ?? [];
        return errors.map((e) => `${e.instancePath} ${e.message ?? ''}`.trim());
      },
    });
    return fault ? this.#fail(fault, body) : answer;
  }

  #takeFault(operationId: string): Fault | undefined {
    const index = this.#faults.findIndex(
      (fault) => fault.operationId === undefined || fault.operationId === operationId,
    );
    if (index !== -1) return this.#faults.splice(index, 1)[0];
    const rule = this.#randomFaults;
    if (rule === null || rule.faults.length === 0) return undefined;
    const random = rule.random ?? Math.random;
    if (random() >= rule.fraction) return undefined;
    this.#randomFaultCount += 1;
    return rule.faults[Math.floor(random() * rule.faults.length)];
  }

  async #fail(fault: Fault, body: unknown): Promise<Answer> {
    if (fault.eventStatus !== undefined) {
      const batch = (body as { batch?: { id?: unknown }[] })?.batch ?? [];
      const message =
        fault.eventMessage === undefined ? 'Injected event failure' : fault.eventMessage;
      const error = fault.eventError === undefined ? 'Injected event failure' : fault.eventError;
      const errors = batch.map((event) => ({
        id: fault.eventId ?? String(event?.id ?? ''),
        status: fault.eventStatus,
        ...(message !== null && { message }),
        ...(error !== null && { error }),
      }));
      return { status: 207, body: { successes: [], errors } };
    }
    if (fault.timeoutMs !== undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          resolve();
        }, fault.timeoutMs);
        this.#timers.add(timer);
      });
      return failure(504, 'Gateway timeout');
    }
    const status = fault.status ?? 500;
    if (status !== 429) return failure(status, 'Injected failure');
    const retryAfterSeconds = fault.retryAfterSeconds ?? 1;
    const resetAt = new Date(this.#store.now() + retryAfterSeconds * 1000);
    return {
      status: 429,
      headers: {
        'retry-after': String(retryAfterSeconds),
        'x-ratelimit-limit': '1000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(resetAt.getTime() / 1000)),
      },
      body: {
        message: 'Rate limit exceeded',
        code: 'rate_limited',
        details: { retryAfterSeconds, limit: 1000, remaining: 0, resetAt: resetAt.toISOString() },
      },
    };
  }

  /** Basic auth with the project's public and secret key, as Langfuse's public API takes. */
  #authorize(header = ''): Answer | null {
    const expected = `Basic ${Buffer.from(`${this.publicKey}:${this.secretKey}`).toString('base64')}`;
    if (header === expected) return null;
    return failure(
      401,
      'Invalid credentials. Confirm that you have used the correct public and secret key.',
      'Unauthorized',
    );
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...(payload !== '' && { 'content-type': 'application/json' }),
    ...answer.headers,
    'x-request-id': randomUUID(),
  });
  response.end(payload);
}
