import { pino } from 'pino';
import { textLogStream } from './log-lines.js';

// What the engine did that an operator follows (an evaluation started and finished, a batch
// started, paused by its budget and finished, a rule set, a version promoted, what a start
// resumed), one line each at info with the ids to look it up by. It is pino, as the API's request
// log is, and writes the same way: one readable line on a terminal, a JSON object otherwise.

/** The fields of a line: `event` names what happened (`evaluation.finished`), the rest its ids. */
export type OperationFields = { event: string } & Record<string, unknown>;

/** Where the engine's parts tell what they did; a pino logger is one. */
export interface OperationsLog {
  info(fields: OperationFields, message: string): void;
  warn(fields: OperationFields, message: string): void;
  error(fields: OperationFields, message: string): void;
}

/**
 * The operations log on `stream` (default stdout): text lines, or pino's JSON lines; from `level`
 * up (default info: `warn` keeps only what went wrong, as the demo does).
 */
export function operationsLog(options: {
  format: 'text' | 'json';
  stream?: NodeJS.WritableStream;
  level?: 'info' | 'warn';
}): OperationsLog {
  const out = options.stream ?? process.stdout;
  return pino(
    { level: options.level ?? 'info' },
    options.format === 'text' ? textLogStream(out) : out,
  );
}

/** The format when none is named: text on a terminal, JSON otherwise. */
export const defaultLogFormat = (): 'text' | 'json' => (process.stdout.isTTY ? 'text' : 'json');

/** A log that says nothing (a test's engine parts, a host that wants none). */
export const silentLog: OperationsLog = { info: () => {}, warn: () => {}, error: () => {} };
