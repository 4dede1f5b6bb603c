import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults, repoRoot } from '../support/processes.js';
import tuningApp from './fixtures/tuning.config.js';

// `evalflow judges tune`, `list` and `backtest` in-process on a store where llm_judge@1 and two
// reviewers judged 20 messages: the judge says passed on all of them, the reviewers fail m1-m8.
// The candidate is recorded with its examples' provenance and its held-out targets; bad flags
// change nothing.

const home = mkdtempSync(join(tmpdir(), 'evalflow-tune-'));
const config = resolve(repoRoot, 'test/cli/fixtures/tuning.config.ts');
const env = embeddedDefaults();
const sqlitePath = join(home, '.evalflow', 'evalflow.db');
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = async (...args: string[]) =>
  cliInProcess([...args, '--config', config], { cwd: home, env });
const withStore = async <T>(work: (store: Store) => Promise<T>): Promise<T> => {
  const store = await openStore({ ...tuningApp, sqlitePath });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};
const MESSAGES = 20;
const failed = (i: number) => i <= 8;

beforeAll(async () => {
  await withStore(async (store) => {
    const run = async (actor: object, command: object) => {
      const outcome = await store.executeUnchecked({ workspace_id: 'acme', actor, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    };
    const system = { kind: 'system', name: 'host' };
    await run(system, { type: 'create_thread', thread_id: 't' });
    for (let i = 1; i <= MESSAGES; i++) {
      const target = { kind: 'message', thread_id: 't', message_id: `m${i}`, run_id: null };
      await run(system, {
        type: 'post_message',
        thread_id: 't',
        message_id: `m${i}`,
        role: 'assistant',
        content: `answer ${i}`,
      });
      await run(
        { kind: 'evaluator', name: 'llm_judge', version: '1' },
        {
          type: 'give_feedback',
          feedback_type: 'judge_verdict',
          target,
          value: { score: 1, passed: true },
        },
      );
      for (const id of ['ana', 'bo']) {
        await run(
          { kind: 'reviewer', id },
          { type: 'give_feedback', feedback_type: 'review', target, value: { passed: !failed(i) } },
        );
      }
    }
  });
});

const recorded = () => withStore((store) => store.judgeVersions.list('acme'));

describe('evalflow judges tune', () => {
  it('refuses bad flags with one usage line, and records nothing', async () => {
    for (const args of [
      ['llm_judge', '--against', 'reviewers:review.passed'],
      ['llm_judge@1', '--against', 'users:review.passed'],
      ['llm_judge@1', '--against', 'reviewers:review.passed', '--held-out-share', '0'],
      ['llm_judge@1', '--against', 'reviewers:review.passed', '--seed', '-1'],
      ['llm_judge@1', '--against', 'reviewers:review.passed', '--max-examples', '0'],
      ['llm_judge@9', '--against', 'reviewers:review.passed'],
      ['llm_judge@1', '--against', 'reviewers:review.passed', '--held-out-share', '0.9'],
    ]) {
      const { code, out, err } = await cli('judges', 'tune', ...args);
      expect([args, code, out]).toEqual([args, 1, '']);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/^(evalflow|error): /);
    }
    expect(await recorded()).toEqual([]);
  }, 60_000);

  it('records a candidate from the training part, and prints its id, the split and the examples', async () => {
    const { code, out, err } = await cli(
      'judges',
      'tune',
      'llm_judge@1',
      '--against',
      'reviewers:review.passed',
      '--max-examples',
      '4',
    );
    expect([code, err]).toEqual([0, '']);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^recorded llm_judge@tuned-1, tuned from llm_judge@1, in acme \(seq \d+\)$/,
    );
    expect(lines[1]).toBe('split: 20 reviewed targets, 14 for training, 6 held out');
    expect(lines[2]).toMatch(/^examples: 4 \(\d of the training part's \d disagreements\)$/);
    const [version] = await recorded();
    expect(version).toMatchObject({
      judge: 'llm_judge',
      version: 'tuned-1',
      tunedFrom: '1',
      rubric: 'Is the answer right?',
      model: 'judge-model',
      feedbackType: 'judge_verdict',
      recordedBy: { kind: 'system', name: 'cli' },
    });
    const examples = version?.examples ?? [];
    expect(examples).toHaveLength(4);
    expect(lines.slice(3).map((line) => line.trim().split(/\s+/)[0])).toEqual(
      examples.map((example) => targetKey(example.target)),
    );
    // Balanced across the reviewers' labels, each with its provenance and the verdict it teaches.
    expect(examples.map((e) => e.reviewersLabel).sort()).toEqual([
      'false',
      'false',
      'true',
      'true',
    ]);
    for (const example of examples) {
      expect(example.reviewers.map((r) => r.raterId).sort()).toEqual([
        'reviewer:ana',
        'reviewer:bo',
      ]);
      expect(example.expectedVerdict).toEqual({ passed: example.reviewersLabel === 'true' });
      expect(example.judgeLabel).toBe('true');
      expect(example.text).toMatch(/^Answer:\nanswer \d+$/);
    }
    // A held-out target is never an example.
    const heldOut = new Set(version?.heldOut.map(targetKey));
    expect(heldOut.size).toBe(6);
    expect(examples.filter((example) => heldOut.has(targetKey(example.target)))).toEqual([]);
  }, 60_000);

  it('prints one JSON object with --json, and names the next candidate tuned-2', async () => {
    const { code, out } = await cli(
      'judges',
      'tune',
      'llm_judge@1',
      '--against',
      'reviewers:review.passed',
      '--seed',
      '7',
      '--json',
    );
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      workspace: 'acme',
      candidate: 'llm_judge@tuned-2',
      tunedFrom: 'llm_judge@1',
      split: { reviewed: 20, training: 14, heldOut: 6 },
    });
    expect((await recorded()).map((v) => v.version)).toEqual(['tuned-1', 'tuned-2']);
  }, 60_000);

  it('refuses recording a version again, changing nothing', async () => {
    const before = await recorded();
    const { code, err } = await cli(
      'judges',
      'tune',
      'llm_judge@1',
      '--against',
      'reviewers:review.passed',
      '--as',
      'tuned-1',
    );
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      'evalflow: acme: llm_judge@tuned-1 is recorded already, and a recorded version never changes',
    );
    expect(await recorded()).toEqual(before);
  }, 60_000);
});

describe('evalflow judges list', () => {
  it('lists the versions recorded as data beside the one declared in code', async () => {
    const { code, out } = await cli('judges', 'list', '--json');
    expect(code).toBe(0);
    const { workspace, versions } = JSON.parse(out);
    expect(workspace).toBe('acme');
    expect(versions.map((v: { id: string; source: string }) => [v.id, v.source])).toEqual([
      ['llm_judge@1', 'declared'],
      ['llm_judge@tuned-1', 'recorded'],
      ['llm_judge@tuned-2', 'recorded'],
    ]);
    expect(versions[1]).toMatchObject({ tunedFrom: 'llm_judge@1', examples: 4, heldOut: 6 });
    const lines = (await cli('judges', 'list')).out.trim().split('\n');
    expect(lines[0]).toBe('LLM judge versions in acme:');
    expect(lines[1]?.trim().split(/\s+/)).toEqual([
      'llm_judge@1',
      'judge-model',
      'judge_verdict',
      'declared',
      'in',
      'code',
    ]);
  }, 60_000);
});

describe('evalflow judges backtest', () => {
  const backtest = () =>
    cli(
      'judges',
      'backtest',
      'llm_judge@tuned-1',
      '--against',
      'reviewers:review.passed',
      '--json',
    );

  it('lists every held-out target as incomplete until the candidate has judged them', async () => {
    const { code, out } = await backtest();
    expect(code).toBe(0);
    const { statistics } = JSON.parse(out);
    expect(statistics).toMatchObject({ targets: 6, compared: 0 });
    expect(statistics.incomplete.map((i: { missing: string[] }) => i.missing)).toEqual(
      Array(6).fill(['new']),
    );
  }, 60_000);

  it('compares the candidate with its base on the held-out targets once it has judged them', async () => {
    const [version] = await recorded();
    const heldOut = version?.heldOut ?? [];
    const failing = await withStore(async (store) => {
      let count = 0;
      for (const target of heldOut) {
        const passed = !failed(Number((target as { message_id: string }).message_id.slice(1)));
        if (!passed) count += 1;
        const outcome = await store.executeUnchecked({
          workspace_id: 'acme',
          actor: { kind: 'evaluator', name: 'llm_judge', version: 'tuned-1' },
          command: {
            type: 'give_feedback',
            feedback_type: 'judge_verdict',
            target,
            value: { score: passed ? 1 : 0, passed },
          },
        });
        expect(outcome.type).toBe('recorded');
      }
      return count;
    });
    const { code, out } = await backtest();
    expect(code).toBe(0);
    const { base, statistics } = JSON.parse(out);
    expect(base).toBe('llm_judge@1');
    expect(statistics).toMatchObject({ targets: 6, compared: 6, incomplete: [] });
    // The candidate agrees with the reviewers on every held-out target; the base, which always
    // says passed, is wrong on each failing one: those are the verdicts that changed.
    expect(statistics.new.kappa).toEqual({ value: 1 });
    expect(statistics.changed).toHaveLength(failing);
    expect(statistics.mcnemar).toMatchObject({ test: 'exact_binomial' });
    const text = (
      await cli('judges', 'backtest', 'llm_judge@tuned-1', '--against', 'reviewers:review.passed')
    ).out;
    expect(text.split('\n')[0]).toBe(
      'backtest of llm_judge@tuned-1 against llm_judge@1 in acme: 6 held-out targets, 6 with all three verdicts, 0 incomplete',
    );
  }, 60_000);

  it('previews a backfill of the candidate over its held-out targets alone, and refuses another kind or a version not recorded', async () => {
    const start = (...flags: string[]) =>
      cli(
        'reevaluate',
        'start',
        '--workspace',
        'acme',
        '--evaluator',
        'llm_judge@tuned-1',
        '--dry-run',
        ...flags,
      );
    const preview = await start(
      '--target',
      'message',
      '--held-out-of',
      'llm_judge@tuned-1',
      '--json',
    );
    expect(preview.code).toBe(0);
    expect(JSON.parse(preview.out)).toMatchObject({
      targets: 6,
      versions: [{ evaluator: 'llm_judge@tuned-1', targets: 6 }],
    });
    const turns = await start('--target', 'turn', '--held-out-of', 'llm_judge@tuned-1');
    expect([turns.code, turns.err]).toEqual([
      1,
      expect.stringMatching(
        /^evalflow: a selection of turn targets names only turn targets, not message:t\/m\d+\n$/,
      ),
    ]);
    const unknown = await start('--target', 'message', '--held-out-of', 'llm_judge@tuned-9');
    expect([unknown.code, unknown.err]).toEqual([
      1,
      'evalflow: llm_judge@tuned-9 is not a judge version recorded in acme\n',
    ]);
  }, 60_000);

  it('sets a shadow rule on the candidate, compares it, and promotes it over its base on its backtest, forced while it is too small', async () => {
    const shadow = await cli('rules', 'set', 'llm_judge@tuned-1', '--mode', 'shadow', '--json');
    expect(shadow.code).toBe(0);
    expect(JSON.parse(shadow.out)).toMatchObject([
      { workspace: 'acme', rule: { evaluator: 'llm_judge@tuned-1', mode: 'shadow' } },
    ]);
    const agreement = await cli(
      'agreement',
      'llm_judge@tuned-1:passed',
      'reviewers:review.passed',
      '--json',
    );
    expect(agreement.code).toBe(0);
    expect(JSON.parse(agreement.out).categorical).toMatchObject({
      matched: 6,
      kappa: { value: 1 },
    });
    const promote = (...flags: string[]) =>
      cli(
        'rules',
        'promote',
        'llm_judge@tuned-1',
        '--backtest',
        '--against',
        'reviewers:review.passed',
        '--min-kappa',
        '0.8',
        '--min-matched',
        '6',
        ...flags,
      );
    // On its backtest the candidate is right on all 6 held-out targets and its base, beside it
    // on the same 6, by chance only; but 6 targets give κ no interval: refused, unless forced.
    const before = await withStore((store) => store.head('acme'));
    const refused = await promote();
    expect([refused.code, refused.out]).toEqual([1, '']);
    expect(refused.err).toMatch(
      /^evalflow: acme: llm_judge@tuned-1 was not promoted: the evidence is short \(the held-out set is too small: 6 compared targets give κ no interval\): κ 1\.000 \(no interval\) over 6 matched targets against reviewers:review\.passed on its 6 held-out targets, as of seq \d+\n$/,
    );
    expect(await withStore((store) => store.head('acme'))).toBe(before);
    const forced = await promote('--force');
    expect([forced.code, forced.err]).toEqual([0, '']);
    expect(forced.out.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^promoted llm_judge@tuned-1 in acme, replacing llm_judge@1 \(now disabled\) \(seq \d+\), forced$/,
      ),
      'evidence: llm_judge@tuned-1:passed against reviewers:review.passed: κ 1.000 (no interval) over 6 matched targets',
      'beside it: llm_judge@1:passed: κ 0.000 (no interval) over 6 matched targets',
      expect.stringMatching(
        /^backtest: 6 held-out targets, κ gain 1\.000 \(no interval\), McNemar p 0\.\d{3}$/,
      ),
      'short of the thresholds: the held-out set is too small: 6 compared targets give κ no interval',
    ]);
    const rules = await withStore((store) => store.rules('acme'));
    expect(rules.map((rule) => [rule.evaluator, rule.enabled, rule.mode ?? 'live'])).toEqual([
      ['llm_judge@1', false, 'live'],
      ['llm_judge@tuned-1', true, 'live'],
    ]);
  }, 60_000);

  it('refuses a rule on a version neither declared nor recorded, changing nothing', async () => {
    const before = await withStore((store) => store.head('acme'));
    const { code, err } = await cli('rules', 'set', 'llm_judge@tuned-9', '--mode', 'shadow');
    expect([code, err.trim()]).toEqual([
      1,
      "evalflow: evaluator llm_judge@tuned-9 is not deployed: add it to the config file's evaluators first, or record it as a judge version in acme (evalflow judges tune)",
    ]);
    expect(await withStore((store) => store.head('acme'))).toBe(before);
  }, 60_000);

  it('refuses a version not recorded, in one line', async () => {
    const { code, err } = await cli(
      'judges',
      'backtest',
      'llm_judge@nope',
      '--against',
      'reviewers:review.passed',
    );
    expect([code, err.trim()]).toEqual([1, 'evalflow: llm_judge@nope is not recorded in acme']);
  }, 60_000);
});
