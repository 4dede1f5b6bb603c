import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configOf, type Terminal } from '../terminal.js';
import { commandLineOf } from './processes.js';

// What a running engine (`evalflow start`, `evalflow worker`) loaded, recorded where `npm start`
// records its dev server, so a command run beside it (`evalflow rules list`, `scores summary`)
// reads the same app instead of the built-ins, and the address its API answers on.

export interface EngineRecord {
  pid: number;
  /** The engine's command line: a record whose pid now runs something else is stale. */
  command: string | null;
  /** The config file the engine loaded, as an absolute path; null for the built-in evaluators. */
  configFile: string | null;
  /** What the engine said it loaded (`examples/quickstart/evalflow.config.ts`, say). */
  source: string;
  /** Where its API answers (`http://127.0.0.1:39395`); null when it serves none (`evalflow worker`). */
  apiUrl: string | null;
  startedAt: string;
}

/** The state folder a command works with: `--home`, else EVALFLOW_HOME, else `./.evalflow`. */
export const engineHomeOf = (terminal: Terminal): string =>
  resolve(terminal.cwd, configOf(terminal).home);

export const engineRecordOf = (home: string): string => join(resolve(home), 'engine.json');

/** Records this process as the engine of `home`; the returned function removes the record. */
export function recordEngine(
  home: string,
  loaded: Pick<EngineRecord, 'configFile' | 'source' | 'apiUrl'>,
): () => void {
  const file = engineRecordOf(home);
  const record: EngineRecord = {
    pid: process.pid,
    command: commandLineOf(process.pid),
    ...loaded,
    startedAt: new Date().toISOString(),
  };
  mkdirSync(resolve(home), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record)}\n`);
  return () => {
    if (runningEngine(home)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The engine recorded in `home`, if it still runs; null otherwise. */
export function runningEngine(home: string): EngineRecord | null {
  let record: EngineRecord;
  try {
    record = JSON.parse(readFileSync(engineRecordOf(home), 'utf8')) as EngineRecord;
  } catch {
    return null;
  }
  const command = commandLineOf(record.pid);
  return command !== null && command === record.command ? record : null;
}
