import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { problemsOf, ScoreConfigExistsError } from '../errors.js';
import { SCORE_DATA_TYPES, type ScoreConfig } from '../model/score-config.js';
import type { ScoreConfigStore } from '../ports.js';
import { ScoreConfigFileError } from './errors.js';
import { readLines } from './lines.js';

const ConfigSchema = z.strictObject({
  name: z.string().min(1),
  typeName: z.string(),
  field: z.string(),
  dataType: z.enum(SCORE_DATA_TYPES),
  description: z.string().nullable(),
  minimum: z.number().nullable(),
  maximum: z.number().nullable(),
  categories: z.array(z.string()),
});

const EntrySchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create'), config: ConfigSchema }),
  z.strictObject({ op: z.literal('archive'), name: z.string() }),
]);

type Entry = z.infer<typeof EntrySchema>;

interface Held {
  readonly config: ScoreConfig;
  archived: boolean;
}

/**
 * Score configs as lines of a JSONL file, for running without Langfuse: each create or archive is
 * one appended line (`{op: 'create', config}`, `{op: 'archive', name}`), and reading replays the
 * file. Like the in-memory store, it holds one config per name and refuses to create a name it
 * holds. Writes through one instance run one at a time; the file is not locked against other
 * processes, so give each file one writer (the engine syncs configs once, at startup).
 */
export class FileScoreConfigStore implements ScoreConfigStore {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async names(): Promise<string[]> {
    return [...(await this.#replay()).keys()];
  }

  async statuses(): Promise<Map<string, { archived: boolean }>> {
    const held = await this.#replay();
    return new Map([...held].map(([name, { archived }]) => [name, { archived }]));
  }

  /** @throws ScoreConfigExistsError, writing nothing, when the file holds the name. */
  create(config: ScoreConfig): Promise<void> {
    return this.#serially(async () => {
      if ((await this.#replay()).has(config.name)) throw new ScoreConfigExistsError(config.name);
      await this.#append({ op: 'create', config: written(config) });
    });
  }

  archive(name: string): Promise<number> {
    return this.#serially(async () => {
      const held = (await this.#replay()).get(name);
      if (!held || held.archived) return 0;
      await this.#append({ op: 'archive', name });
      return 1;
    });
  }

  /** Every config the file holds, archived ones included, in the order created. */
  async configs(): Promise<ScoreConfig[]> {
    return [...(await this.#replay()).values()].map(({ config }) => config);
  }

  /** Runs writes one after another, so a read-then-append is not interleaved with another. */
  #serially<T>(write: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(write);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** @throws ScoreConfigFileError for a line this store would not have written. */
  async #replay(): Promise<Map<string, Held>> {
    const held = new Map<string, Held>();
    const lines = await readLines(this.path);
    for (let number = 1; number <= lines.length; number++) {
      const line = lines[number - 1] as string;
      if (line === '') continue;
      const entry = this.#parse(line, number);
      const name = entry.op === 'create' ? entry.config.name : entry.name;
      const existing = held.get(name);
      if (entry.op === 'create') {
        if (existing) throw new ScoreConfigFileError(this.path, number, `creates '${name}' again`);
        held.set(name, { config: entry.config, archived: false });
      } else {
        if (!existing) {
          const problem = `archives '${name}', which is not created above`;
          throw new ScoreConfigFileError(this.path, number, problem);
        }
        existing.archived = true;
      }
    }
    return held;
  }

  #parse(line: string, number: number): Entry {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ScoreConfigFileError(this.path, number, 'not JSON');
    }
    const parsed = EntrySchema.safeParse(json);
    if (!parsed.success) {
      const problem = problemsOf(parsed.error, 'entry').join('; ');
      throw new ScoreConfigFileError(this.path, number, problem);
    }
    return parsed.data;
  }

  async #append(entry: Entry): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, `${JSON.stringify(entry)}\n`);
  }
}

/** The config's own fields, so a caller's extra properties never reach the file. */
function written(config: ScoreConfig): z.infer<typeof ConfigSchema> {
  const { name, typeName, field, dataType, description, minimum, maximum, categories } = config;
  return {
    name,
    typeName,
    field,
    dataType,
    description,
    minimum,
    maximum,
    categories: [...categories],
  };
}
