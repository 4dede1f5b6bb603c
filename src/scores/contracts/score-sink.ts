import { type Score, scoreMetadata } from '../model/score.js';
import type { ScoreSink } from '../ports.js';
import { contractFeedbackScore, contractVerdictScores } from './contract-subjects.js';
import { must } from './support.js';

/** Shows what a sink holds, as `Score`s: the in-memory sink's scores, or a backend read back. */
export type ReadBack<S> = (sink: S) => Promise<Iterable<Score>>;

/**
 * Checks that a sink keeps one score per id, the latest recorded, whole: its value and type,
 * trace, span, session, time and metadata (a score recorded without a time may come back with
 * one). When the sink can `delete`, also checks that a deleted score is gone, that the others
 * stay, and that deleting an unknown id is no error. Needs no test framework.
 *
 * @param makeSink Gives a sink holding no scores yet.
 * @throws ContractViolationError naming the first obligation broken.
 */
export async function checkScoreSink<S extends ScoreSink>(
  makeSink: () => S | Promise<S>,
  readBack: ReadBack<S>,
): Promise<void> {
  const sink = await makeSink();
  const first = contractVerdictScores(1);
  const second = contractVerdictScores(2, 'evalflow-contract-subject', '00f067aa0ba902b7');
  const feedback = contractFeedbackScore();
  const changed: Score = { ...(first[0] as Score), value: 5 };

  await sink.record(first);
  await sink.record(first);
  await sink.record(second);
  await sink.record([feedback]);
  await sink.record([changed]);

  const expected = new Map<string, Score>();
  for (const score of [...first, ...second, feedback, changed]) expected.set(score.id, score);
  const held = [...(await readBack(sink))];
  checkHeld(held, expected);

  if (sink.delete) {
    await sink.delete([feedback.id, 'evalflow-contract-never-recorded']);
    expected.delete(feedback.id);
    const after = [...(await readBack(sink))];
    must(
      !after.some((score) => score.id === feedback.id),
      'a deleted score must no longer be held',
    );
    checkHeld(after, expected);
  }
}

function checkHeld(held: readonly Score[], expected: ReadonlyMap<string, Score>): void {
  const ids = held.map((score) => score.id);
  must(
    ids.length === new Set(ids).size,
    'recording a score again must replace it, not add another',
  );
  const byId = new Map(held.map((score) => [score.id, score]));
  const missing = [...expected.keys()].filter((id) => !byId.has(id));
  const extra = ids.filter((id) => !expected.has(id));
  must(
    missing.length === 0 && extra.length === 0,
    `every score recorded, and only those, must be kept (missing ${list(missing)}, extra ${list(extra)})`,
  );
  for (const [id, score] of expected) {
    const difference = firstDifference(score, byId.get(id) as Score);
    must(
      difference === null,
      `${score.name}: the latest value recorded must be kept, with its type, trace, span, ` +
        `session, time and metadata (${difference})`,
    );
  }
}

/** The first field in which a kept score differs from what was recorded, or null. */
function firstDifference(recorded: Score, kept: Score): string | null {
  const fields = ['name', 'value', 'dataType', 'traceId', 'spanId', 'sessionId'] as const;
  for (const field of fields) {
    if (recorded[field] !== kept[field]) return differs(field, recorded[field], kept[field]);
  }
  if (recorded.timestamp !== undefined) {
    const same =
      kept.timestamp !== undefined && Date.parse(recorded.timestamp) === Date.parse(kept.timestamp);
    if (!same) return differs('timestamp', recorded.timestamp, kept.timestamp);
  }
  const recordedMetadata = sortedEntries(scoreMetadata(recorded));
  const keptMetadata = sortedEntries(scoreMetadata(kept));
  if (recordedMetadata !== keptMetadata) return differs('metadata', recordedMetadata, keptMetadata);
  return null;
}

function sortedEntries(record: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function differs(field: string, recorded: unknown, kept: unknown): string {
  return `${field}: recorded ${JSON.stringify(recorded)}, kept ${JSON.stringify(kept)}`;
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? 'none' : ids.join(', ');
}
