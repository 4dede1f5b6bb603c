import { expect } from 'vitest';

// What the quickstart's host programs print: their own lines, then where to look, naming the run
// they reported (new ids on each run, so they run any number of times, in any order).

/** Checks an example's whole output; the id of the run it reported. */
export function reportedRun(out: string, own: string[]): string {
  const lines = out.split('\n');
  const runId = lines[own.length]?.split(' ')[0] ?? '';
  expect(runId).toMatch(/^run-[0-9a-f]{8}$/);
  expect(lines).toEqual([
    ...own,
    `${runId} in workspace quickstart: see its verdicts and the scores with`,
    `  npx evalflow ledger --workspace quickstart --run ${runId}`,
    '  npx evalflow scores summary --workspace quickstart --config examples/quickstart/evalflow.config.ts',
    "  and the engine's .evalflow/scores.jsonl (or Langfuse, when its keys are set)",
    '',
  ]);
  return runId;
}

/** The thread and the answer of a run an example reported. */
export const exampleIds = (runId: string) => ({
  threadId: runId.replace(/^run-/, 'thread-'),
  answerId: runId.replace(/^run-/, 'answer-'),
});
