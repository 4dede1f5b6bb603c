import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseScores, type Score } from '../model/score.js';
import type { ScoreReader, ScoreSink } from '../ports.js';
import { readLines } from './lines.js';

/**
 * Scores as lines of a JSONL file, for running without Langfuse: each record or delete is one
 * appended line, and reading replays the file, so the latest line for an id wins (upsert by id).
 */
export class JsonlScoreSink implements ScoreSink, ScoreReader {
  constructor(readonly path: string) {}

  async record(scores: readonly Score[]): Promise<void> {
    const checked = parseScores(scores);
    if (checked.length === 0) return;
    await this.append(checked.map((score) => ({ op: 'record', score })));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.append(ids.map((id) => ({ op: 'delete', id })));
  }

  async read(ids: readonly string[]): Promise<Map<string, Score>> {
    const all = await this.all();
    return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id) as Score]] : [])));
  }

  /** Every score the file holds now. */
  async all(): Promise<Map<string, Score>> {
    const scores = new Map<string, Score>();
    for (const line of await readLines(this.path)) {
      if (line === '') continue;
      const entry = JSON.parse(line) as
        | { op: 'record'; score: Score }
        | { op: 'delete'; id: string };
      if (entry.op === 'record') scores.set(entry.score.id, entry.score);
      else scores.delete(entry.id);
    }
    return scores;
  }

  private async append(entries: object[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
  }
}
