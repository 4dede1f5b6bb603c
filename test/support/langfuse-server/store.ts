// What the test server holds: score rows as Langfuse's ClickHouse table does (one row per id,
// name and UTC date of the timestamp), score configs, and writes queued until their lag passes.
import { createHash, randomUUID } from 'node:crypto';

export type StoredDataType = 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL' | 'TEXT' | 'CORRECTION';

/** A score as it arrives, after the synchronous checks, before the worker applies it. */
export interface IncomingScore {
  readonly id: string;
  readonly name: string;
  readonly value: number | string;
  readonly dataType: StoredDataType | null;
  readonly traceId: string | null;
  readonly observationId: string | null;
  readonly sessionId: string | null;
  readonly datasetRunId: string | null;
  readonly environment: string;
  readonly metadata: unknown;
  readonly comment: string | null;
  readonly configId: string | null;
  readonly source: 'API' | 'ANNOTATION' | 'EVAL';
  /** ISO-8601; the envelope's for ingestion, the server's clock for `POST /scores`. */
  readonly timestamp: string;
}

export interface StoredScore {
  readonly id: string;
  readonly name: string;
  readonly value: number | string;
  readonly dataType: StoredDataType;
  readonly traceId: string | null;
  readonly observationId: string | null;
  readonly sessionId: string | null;
  readonly datasetRunId: string | null;
  readonly environment: string;
  /** Langfuse keeps score metadata as string to string. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly comment: string | null;
  readonly configId: string | null;
  readonly source: 'API' | 'ANNOTATION' | 'EVAL';
  readonly timestamp: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ConfigCategory {
  readonly label: string;
  readonly value: number;
}

export interface StoredConfig {
  readonly id: string;
  readonly projectId: string;
  name: string;
  readonly dataType: 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL' | 'TEXT';
  isArchived: boolean;
  minValue?: number;
  maxValue?: number;
  categories?: ConfigCategory[];
  description?: string;
  readonly createdAt: string;
  updatedAt: string;
}

/** Scores to lose after acceptance: a fraction (chosen by hashing the id) or a predicate. */
export type DropRule = number | ((score: IncomingScore) => boolean);

/**
 * Deletes answered 202 and never applied, as langfuse#10692 and #11070 report: a fraction of
 * the ids (by hash) or a predicate on the id.
 */
export type IgnoreDeletesRule = number | ((scoreId: string) => boolean);

/** Why an accepted score was never stored. */
export interface DroppedScore {
  readonly score: IncomingScore;
  readonly reason: string;
}

type Write =
  | { readonly kind: 'upsert'; readonly score: IncomingScore }
  | { readonly kind: 'delete'; readonly id: string };

interface QueuedWrite {
  readonly seq: number;
  readonly visibleAt: number;
  readonly write: Write;
}

export class LangfuseStore {
  readonly #rows = new Map<string, StoredScore>();
  readonly #configs = new Map<string, StoredConfig>();
  readonly #queue: QueuedWrite[] = [];
  readonly #dropped: DroppedScore[] = [];
  readonly #ignoredDeletes: string[] = [];
  #seq = 0;

  constructor(
    readonly projectId: string,
    readonly now: () => number,
    public lagMs: number,
    public drop: DropRule | null,
    public ignoreDeletes: IgnoreDeletesRule | null = null,
  ) {}

  /** Queues a write; the worker applies it once `lagMs` has passed on the server's clock. */
  enqueue(write: Write): void {
    this.#queue.push({ seq: this.#seq++, visibleAt: this.now() + this.lagMs, write });
  }

  /** Applies every queued write that is due, oldest first. */
  applyDue(): void {
    const now = this.now();
    const due = this.#queue.filter((queued) => queued.visibleAt <= now);
    if (due.length === 0) return;
    due.sort((a, b) => a.visibleAt - b.visibleAt || a.seq - b.seq);
    for (const queued of due) {
      this.#queue.splice(this.#queue.indexOf(queued), 1);
      if (queued.write.kind === 'delete') this.#delete(queued.write.id);
      else this.#upsert(queued.write.score);
    }
  }

  pending(): number {
    return this.#queue.length;
  }

  /** Visible rows, in the order first written. */
  rows(): StoredScore[] {
    return [...this.#rows.values()];
  }

  dropped(): DroppedScore[] {
    return [...this.#dropped];
  }

  /** Ids of accepted deletes the worker never applied, once per delete. */
  ignoredDeletes(): string[] {
    return [...this.#ignoredDeletes];
  }

  configs(): StoredConfig[] {
    return [...this.#configs.values()];
  }

  config(id: string): StoredConfig | undefined {
    return this.#configs.get(id);
  }

  addConfig(config: Omit<StoredConfig, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>) {
    const at = new Date(this.now()).toISOString();
    const stored: StoredConfig = {
      ...config,
      id: randomUUID(),
      projectId: this.projectId,
      createdAt: at,
      updatedAt: at,
    };
    this.#configs.set(stored.id, stored);
    return stored;
  }

  #delete(id: string): void {
    const rule = this.ignoreDeletes;
    if (typeof rule === 'number' ? idFraction(id) < rule : (rule?.(id) ?? false)) {
      this.#ignoredDeletes.push(id);
      return;
    }
    for (const [key, row] of this.#rows) if (row.id === id) this.#rows.delete(key);
  }

  /** The worker's step: drop rules, config validation, then merge by (id, name, UTC date). */
  #upsert(incoming: IncomingScore): void {
    const reason = this.#dropReason(incoming);
    if (reason !== null) {
      this.#dropped.push({ score: incoming, reason });
      return;
    }
    const config = incoming.configId === null ? undefined : this.#configs.get(incoming.configId);
    // A config's name and data type win over the score's, as Langfuse's worker does.
    const name = config?.name ?? incoming.name;
    const dataType = incoming.dataType ?? config?.dataType ?? inferred(incoming.value);
    const utcDate = new Date(incoming.timestamp).toISOString().slice(0, 10);
    const key = `${incoming.id}|${name}|${utcDate}`;
    const existing = this.#rows.get(key);
    const at = new Date(this.now()).toISOString();
    this.#rows.set(key, {
      id: incoming.id,
      name,
      value: incoming.value,
      dataType,
      // Immutable after the first write: the timestamp, the trace, the environment.
      traceId: existing ? existing.traceId : incoming.traceId,
      timestamp: existing ? existing.timestamp : new Date(incoming.timestamp).toISOString(),
      environment: existing ? existing.environment : incoming.environment,
      createdAt: existing ? existing.createdAt : at,
      observationId: incoming.observationId,
      sessionId: incoming.sessionId,
      datasetRunId: incoming.datasetRunId,
      metadata: stringMetadata(incoming.metadata),
      comment: incoming.comment,
      configId: incoming.configId,
      source: incoming.source,
      updatedAt: at,
    });
  }

  #dropReason(score: IncomingScore): string | null {
    if (typeof this.drop === 'number' && idFraction(score.id) < this.drop) {
      return 'lost (drop fraction)';
    }
    if (typeof this.drop === 'function' && this.drop(score)) return 'lost (drop rule)';
    if (score.configId === null) return null;
    const config = this.#configs.get(score.configId);
    if (!config) return `config ${score.configId} does not exist`;
    if (config.isArchived) return `config ${config.name} is archived`;
    const dataType = score.dataType ?? config.dataType;
    if (dataType !== config.dataType) {
      return `data type ${dataType} differs from config ${config.name}'s ${config.dataType}`;
    }
    if (dataType === 'NUMERIC' && typeof score.value === 'number') {
      if (config.minValue !== undefined && score.value < config.minValue) return 'below minimum';
      if (config.maxValue !== undefined && score.value > config.maxValue) return 'above maximum';
    }
    if (
      dataType === 'CATEGORICAL' &&
      !(config.categories ?? []).some((category) => category.label === score.value)
    ) {
      return `'${score.value}' is not a category of ${config.name}`;
    }
    return null;
  }
}

/** A number in [0, 1) fixed by the id, so a drop fraction loses the same scores every run. */
export function idFraction(id: string): number {
  return createHash('sha1').update(id).digest().readUInt32BE(0) / 2 ** 32;
}

function inferred(value: number | string): StoredDataType {
  return typeof value === 'number' ? 'NUMERIC' : 'CATEGORICAL';
}

function stringMetadata(metadata: unknown): Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return {};
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}
