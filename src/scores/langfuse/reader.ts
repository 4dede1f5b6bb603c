import type { LangfuseClient } from '@langfuse/client';
import { InvalidScoreError } from '../errors.js';
import type { Score } from '../model/score.js';
import type { ScoreReader } from '../ports.js';
import { callLangfuse, DEFAULT_TIMEOUT_SECONDS, requestOptions } from './requests.js';

type ScoresPage = Awaited<ReturnType<LangfuseClient['api']['scoresV3']['getManyV3']>>;
type StoredScore = ScoresPage['data'][number];
type ScoresQuery = NonNullable<Parameters<LangfuseClient['api']['scoresV3']['getManyV3']>[0]>;

const PAGE_SIZE = 100;
/** Ids per request: keeps the query string short, whatever the ids look like. */
const IDS_PER_REQUEST = 50;
const EVALUATOR_KEYS = new Set(['evaluator', 'version', 'confidence']);

export interface LangfuseScoreReaderOptions {
  /** Per request; 30 s by default. */
  readonly timeoutInSeconds?: number;
  /** Read only scores of this Langfuse environment. */
  readonly environment?: string;
}

/**
 * Reads scores back from Langfuse (`GET /api/public/v3/scores`, following its cursor), to
 * reconcile what was sent with what Langfuse kept. Langfuse shows writes after a delay of
 * seconds to minutes, so a score missing now may appear later.
 */
export class LangfuseScoreReader implements ScoreReader {
  readonly #client: LangfuseClient;
  readonly #timeout: number;
  readonly #environment: string | undefined;

  constructor(client: LangfuseClient, options: LangfuseScoreReaderOptions = {}) {
    this.#client = client;
    this.#timeout = options.timeoutInSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    this.#environment = options.environment;
  }

  /**
   * The scores Langfuse holds with these ids. Where Langfuse holds several rows of one id (sent
   * under another name or on another UTC day), the latest updated is returned.
   *
   * @throws InvalidScoreError for an id with a comma, which the id filter cannot express.
   * @throws LangfuseRequestError when a request fails.
   */
  async read(ids: readonly string[]): Promise<Map<string, Score>> {
    const wanted = [...new Set(ids)];
    const bad = wanted.filter((id) => id === '' || id.includes(','));
    if (bad.length > 0) {
      const problem = `score ids cannot be empty or hold a comma: ${bad.join(' | ')}`;
      throw new InvalidScoreError(problem, [problem]);
    }
    const found = new Map<string, { score: Score; updatedAt: string }>();
    for (let start = 0; start < wanted.length; start += IDS_PER_REQUEST) {
      const chunk = wanted.slice(start, start + IDS_PER_REQUEST);
      for (const row of await this.#pages({ id: chunk.join(',') })) {
        const score = scoreFromLangfuse(row);
        const held = found.get(row.id);
        if (score && (!held || held.updatedAt < row.updatedAt)) {
          found.set(row.id, { score, updatedAt: row.updatedAt });
        }
      }
    }
    return new Map([...found].map(([id, { score }]) => [id, score]));
  }

  /** Every score row Langfuse holds (of the environment, when set), duplicates included. */
  async list(): Promise<Score[]> {
    return (await this.#pages({})).flatMap((row) => scoreFromLangfuse(row) ?? []);
  }

  async #pages(filter: ScoresQuery): Promise<StoredScore[]> {
    const rows: StoredScore[] = [];
    let cursor: string | undefined;
    do {
      const query: ScoresQuery = {
        ...filter,
        limit: PAGE_SIZE,
        fields: 'details,subject',
        ...(this.#environment && { environment: this.#environment }),
        ...(cursor && { cursor }),
      };
      const page = await callLangfuse('GET /api/public/v3/scores', () =>
        this.#client.api.scoresV3.getManyV3(query, requestOptions(this.#timeout)),
      );
      rows.push(...page.data);
      cursor = page.meta.cursor ?? undefined;
    } while (cursor);
    return rows;
  }
}

/**
 * A stored Langfuse score as a `Score`: its subject gives the trace and span, or the session;
 * its metadata gives the evaluator fields, and the rest is the source (Langfuse keeps metadata
 * values as strings, so confidence is read back as a number). Corrections are not scores of
 * evalflow's and give null.
 */
export function scoreFromLangfuse(row: StoredScore): Score | null {
  if (row.dataType === 'CORRECTION') return null;
  const score: Score = {
    id: row.id,
    name: row.name,
    value: row.dataType === 'BOOLEAN' ? Boolean(row.value) : row.value,
    dataType: row.dataType,
    timestamp: row.timestamp,
    source: {},
  };
  const subject = row.subject;
  if (subject?.kind === 'trace') score.traceId = subject.id;
  else if (subject?.kind === 'observation') {
    if (subject.traceId) score.traceId = subject.traceId;
    score.spanId = subject.id;
  } else if (subject?.kind === 'session') score.sessionId = subject.id;
  for (const [key, value] of Object.entries(row.metadata ?? {})) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (!EVALUATOR_KEYS.has(key)) score.source[key] = text;
    else if (key === 'confidence') score.confidence = Number(value);
    else score[key as 'evaluator' | 'version'] = text;
  }
  return score;
}
