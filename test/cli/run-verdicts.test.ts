import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults, repoRoot } from '../support/processes.js';
import { recordRunVerdicts } from '../support/run-verdicts.js';

// Verdicts read back where a user looks for them, in process on the embedded defaults' store:
// `runs show` (the run's read), `ledger --values`, and `scores summary` over a workspace that
// holds feedback types the app no longer declares.

const home = mkdtempSync(join(tmpdir(), 'evalflow-run-verdicts-cli-'));
const config = resolve(repoRoot, 'examples/quickstart/evalflow.config.ts');
const env = embeddedDefaults();
beforeAll(() => recordRunVerdicts(join(home, '.evalflow', 'evalflow.db')));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = (...args: string[]) => cliInProcess([...args, '--config', config], { cwd: home, env });
const json = async (...args: string[]) => {
  const result = await cli(...args, '--json');
  expect(result.err, `evalflow ${args.join(' ')}`).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.out);
};
/** A table's rows without its rules and blank lines, cells split where two spaces or more part them. */
const rows = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter((line) => !/^[-\s]*$/.test(line))
    .map((line) => line.split(/\s{2,}/));

describe('runs show', () => {
  it("prints the run's read as the API answers it, with its verdicts", async () => {
    const shown = await json('runs', 'show', 'r1');
    expect(shown.workspace).toBe('acme');
    expect(shown.run).toMatchObject({ runId: 'r1', threadId: 't1', status: 'completed' });
    expect(
      shown.verdicts.map(
        (v: { feedbackType: string; label: string | null; evaluator: string | null }) => [
          v.feedbackType,
          v.label,
          v.evaluator,
        ],
      ),
    ).toEqual([
      ['politeness', null, 'politeness@1'],
      ['refusal', null, 'refusal@1'],
      ['turn_outcome', null, 'turn_outcome@1'],
      ['json_validity', null, 'json_validity@1'],
      ['review_verdict', 'pass', null],
      ['helpfulness', null, null],
    ]);
    expect(shown.verdicts[4]).toMatchObject({
      value: { verdict: 'pass', note: 'kind and right' },
      source: 'SCORE_SOURCE_HUMAN',
      rater: 'reviewer:grace',
    });
    expect(shown.evaluations).toHaveLength(2);
  });

  it('prints a table of the verdicts, then the ledger', async () => {
    const { code, out } = await cli('runs', 'show', 'r1');
    expect(code).toBe(0);
    const lines = rows(out);
    expect(lines[0]?.join(' ')).toMatch(/^run r1 in workspace acme, thread t1: completed/);
    expect(lines.slice(1, 8).map((row) => row.slice(0, 6))).toEqual([
      ['feedback type', 'target', 'label', 'value', 'source', 'by'],
      ['politeness', 'message t1/answer-r1', '-', '{"polite":true}', 'JUDGE', 'politeness@1'],
      ['refusal', 'message t1/answer-r1', '-', '{"refused":false}', 'HARNESS', 'refusal@1'],
      [
        'turn_outcome',
        'turn r1',
        '-',
        '{"completed":true,"assistant_messages":1}',
        'HARNESS',
        'turn_outcome@1',
      ],
      [
        'json_validity',
        'artifact invoice-1@1',
        '-',
        '{"valid":true,"error":null}',
        'HARNESS',
        'json_validity@1',
      ],
      [
        'review_verdict',
        'turn r1',
        'pass',
        '{"verdict":"pass","note":"kind and right"}',
        'HUMAN',
        'reviewer:grace',
      ],
      [
        'helpfulness',
        'message t1/answer-r1',
        '-',
        '{"helpful":true,"stars":4}',
        'USER',
        'user:ada',
      ],
    ]);
    expect(lines.slice(8)).toEqual([
      ['evaluator', 'target', 'state', 'reason'],
      ['answer_length@1', 'message t1/answer-r1', 'sampled_out', 'outside the sample rate 0.5'],
      ['politeness@1', 'message t1/answer-r1', 'recorded', '-'],
    ]);
  });

  it('refuses a run no workspace holds, with one line', async () => {
    const { code, out, err } = await cli('runs', 'show', 'nope');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trim().split('\n').at(-1)).toBe('evalflow: no run nope in any workspace');
  });
});

describe('ledger --values', () => {
  it("adds each recorded verdict's value and label, and none to other states", async () => {
    const entries = await json('ledger', '--run', 'r1', '--values');
    expect(
      entries.map((e: { evaluator: string; state: string; value: unknown; label: unknown }) => [
        e.evaluator,
        e.state,
        e.value,
        e.label,
      ]),
    ).toEqual([
      ['answer_length@1', 'sampled_out', null, null],
      ['politeness@1', 'recorded', { polite: true }, null],
    ]);
    const { code, out } = await cli('ledger', '--run', 'r1', '--values');
    expect(code).toBe(0);
    const lines = rows(out);
    expect(lines[0]?.slice(0, 8)).toEqual([
      'workspace',
      'generation',
      'evaluator',
      'target',
      'state',
      'label',
      'value',
      'reason',
    ]);
    expect(lines[1]?.slice(4, 8)).toEqual(['sampled_out', '-', '-', 'outside the sample rate 0.5']);
    expect(lines[2]?.slice(2, 8)).toEqual([
      'politeness@1',
      'message t1/answer-r1',
      'recorded',
      '-',
      '{"polite":true}',
      '-',
    ]);
  });
});

describe('scores summary', () => {
  it('shows every type the workspace holds, marking those the app no longer declares', async () => {
    const groups = await json('scores', 'summary', '--workspace', 'acme');
    const named = (name: string) => groups.filter((g: { name: string }) => g.name === name);
    expect(named('refusal.refused')).toEqual([
      {
        workspace: 'acme',
        source: 'SCORE_SOURCE_HARNESS',
        producer: 'refusal@1',
        sourceLabel: null,
        shadow: false,
        name: 'refusal.refused',
        declared: false,
        comparable: false,
        count: 1,
        mean: 0,
        distribution: { false: 1 },
      },
    ]);
    expect(named('turn_outcome.assistant_messages')).toMatchObject([
      { declared: false, count: 1, mean: 1, distribution: null },
    ]);
    expect(named('politeness.polite')).toMatchObject([{ declared: true, count: 2, mean: 0.5 }]);
    const { out } = await cli('scores', 'summary', '--workspace', 'acme');
    expect(out).toMatch(
      /^acme\s+HARNESS\s+refusal@1\s+-\s+refusal\.refused \(not declared by the app\)\s+1\s+0\s+false:1$/m,
    );
    expect(out).toMatch(
      /^acme\s+JUDGE\s+politeness@1\s+-\s+politeness\.polite\s+2\s+0\.5\s+true:1 false:1$/m,
    );
  });
});
