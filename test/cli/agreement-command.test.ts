import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSides } from '../../src/evidence/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { wireAgreement } from '../../src/wire/agreement.js';
import { judgesApp, storeVerdicts } from '../evidence/stored-verdicts.js';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults, repoRoot } from '../support/processes.js';

// `evalflow agreement` and `evalflow rules promote` as a script meets them, spawned in a folder
// of their own on the stored verdicts of test/evidence (one workspace, so none is named).

const home = mkdtempSync(join(tmpdir(), 'evalflow-agreement-'));
const config = resolve(repoRoot, 'test/cli/fixtures/judges.config.ts');
const env = embeddedDefaults();
const sqlitePath = join(home, '.evalflow', 'evalflow.db');
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = async (...args: string[]) =>
  cliInProcess([...args, '--config', config], { cwd: home, env });

let store: Store;
beforeAll(async () => {
  store = await openStore({ ...judgesApp, sqlitePath });
  await storeVerdicts(store, 'acme', () => {});
  await store.close();
});

describe('evalflow agreement', () => {
  it('prints the comparison as tables: κ with its interval, base rates, the matrix, the disagreements', async () => {
    const { code, out, err } = await cli(
      'agreement',
      'politeness@2:polite',
      'reviewers',
      '--target-kind',
      'message',
    );
    expect([code, err]).toEqual([0, '']);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(
      /^politeness@2:polite against reviewers:politeness\.polite in acme \(as of seq \d+\)$/,
    );
    expect(lines).toContain('message targets only');
    expect(lines).toContain('matched 10 of 12 targets (only A 2, only B 0)');
    expect(lines.find((line) => line.startsWith("Cohen's κ"))).toMatch(
      /^Cohen's κ\s+0\.783\s+95 % interval -?\d\.\d{3}–\d\.\d{3}$/,
    );
    expect(lines.find((line) => line.startsWith('false '))?.split(/\s+/)).toEqual([
      'false',
      '3',
      '0.300',
      '4',
      '0.400',
      '0.750',
      '1.000',
      '0.857',
    ]);
    const matrix = lines.indexOf('confusion matrix: rows A, columns B');
    expect(lines.slice(matrix + 3, matrix + 5).map((line) => line.split(/\s+/))).toEqual([
      ['false', '3', '0'],
      ['true', '1', '6'],
    ]);
    expect(lines.find((line) => line.startsWith('B (reviewers'))).toContain(
      "3 raters, 8 targets with two or more, 1 tie; Fleiss' κ undefined:",
    );
    expect(lines).toContain('disagreements: 1');
    expect(lines.at(-2)?.split(/\s+/)).toEqual([
      'message:t/m8',
      'true',
      'false',
      'reviewer:grace=false',
    ]);
  }, 60_000);

  it('prints the API’s answer with --json, the mapping applied', async () => {
    const { code, out } = await cli(
      'agreement',
      'politeness@2:polite',
      'reviewer:grace:review_verdict.verdict',
      '--map',
      'pass=true',
      '--map',
      'fail=false',
      '--json',
    );
    expect(code).toBe(0);
    const answer = JSON.parse(out);
    const opened = await openStore({ ...judgesApp, sqlitePath });
    try {
      const direct = await compareSides(opened, judgesApp, {
        workspaceId: 'acme',
        a: 'politeness@2:polite',
        b: 'reviewer:grace:review_verdict.verdict',
        mapping: { pass: 'true', fail: 'false' },
      });
      expect(answer).toEqual({
        workspace: 'acme',
        ...JSON.parse(JSON.stringify(wireAgreement(direct))),
      });
    } finally {
      await opened.close();
    }
    expect(answer.categorical.kappa.value).toBe(1);
  }, 60_000);

  it('sends the disagreements to a review queue with --queue, each once', async () => {
    const args = ['agreement', 'politeness@1:polite', 'reviewers', '--target-kind', 'message'];
    const first = await cli(...args, '--queue', 'second-look');
    expect(first.out.trim().split('\n').at(-1)).toBe(
      'sent 3 disagreeing targets to review queue second-look: 3 added, 0 queued already',
    );
    const again = JSON.parse((await cli(...args, '--queue', 'second-look', '--json')).out);
    expect(again.queued).toMatchObject({ disagreements: 3, added: 0, alreadyQueued: 3 });
    const missing = await cli(...args, '--queue', 'nowhere');
    expect(missing.err).toBe('evalflow: review queue nowhere does not exist\n');
  }, 60_000);

  it('refuses a side it cannot read, and a bad mapping, in one line', async () => {
    const side = await cli('agreement', 'politeness@9:polite', 'reviewers');
    expect([side.code, side.err]).toEqual([
      1,
      "evalflow: evaluator politeness@9 is not deployed: it is not in the app's evaluators, nor a judge version recorded in the workspace\n",
    ]);
    const mapping = await cli('agreement', 'politeness@2:polite', 'reviewers', '--map', 'pass');
    expect(mapping.err).toBe('evalflow: a mapping is FROM=TO, such as pass=true, not "pass"\n');
    const kind = await cli(
      'agreement',
      'politeness@2:polite',
      'reviewers',
      '--target-kind',
      'session',
    );
    expect(kind.code).toBe(1);
    expect(kind.err).toContain(
      'a target kind is one of artifact, message, thread, turn, not session',
    );
  }, 60_000);
});

describe('evalflow rules promote', () => {
  const promote = (...extra: string[]) =>
    cli(
      'rules',
      'promote',
      'politeness@2',
      '--replacing',
      'politeness@1',
      '--against',
      'reviewers',
      '--field',
      'polite',
      '--target-kind',
      'message',
      '--min-kappa',
      '0.6',
      ...extra,
    );

  it('refuses short evidence with its figures, and promotes on enough, recording the evidence', async () => {
    const short = await promote('--min-matched', '50');
    expect(short.code).toBe(1);
    expect(short.err).toMatch(
      /^evalflow: acme: politeness@2 was not promoted: the evidence is short \(10 matched targets, fewer than 50\): κ 0\.783 \(95 % interval .+\) over 10 matched targets against reviewers:politeness\.polite, as of seq \d+\n$/,
    );
    const promoted = await promote('--min-matched', '10');
    expect(promoted.err).toBe('');
    expect(promoted.out.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(
        /^promoted politeness@2 in acme, replacing politeness@1 \(now disabled\) \(seq \d+\)$/,
      ),
      expect.stringMatching(
        /^evidence: politeness@2:polite against reviewers:politeness\.polite: κ 0\.783 \(95 % interval .+\) over 10 matched targets$/,
      ),
      'beside it: politeness@1:polite: κ 0.308 (no interval) over 9 matched targets',
    ]);
    const rules = JSON.parse((await cli('rules', 'list', '--workspace', 'acme', '--json')).out);
    expect(
      rules.map((r: { evaluator: string; enabled: boolean; setBy: string }) => [
        r.evaluator,
        r.enabled,
        r.setBy,
      ]),
    ).toEqual([
      ['politeness@1', false, 'system:cli'],
      ['politeness@2', true, 'system:cli'],
    ]);
  }, 120_000);

  it('records a forced promotion as forced, and refuses a threshold that cannot be', async () => {
    const forced = await cli(
      'rules',
      'promote',
      'politeness@1',
      '--replacing',
      'politeness@2',
      '--against',
      'reviewers',
      '--field',
      'polite',
      '--min-kappa',
      '0.9',
      '--min-matched',
      '5',
      '--force',
      '--json',
    );
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.out)).toMatchObject({
      workspace: 'acme',
      event: {
        type: 'evaluator_promoted',
        forced: true,
        shortfalls: [expect.stringMatching(/^κ 0\.\d{3} is below 0\.9$/)],
      },
    });
    const bad = await promote('--min-matched', '0');
    expect(bad.err).toBe('evalflow: --min-matched is a whole number from 1, not 0\n');
  }, 120_000);
});
