import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import app from '../../examples/quickstart/evalflow.config.js';
import { buildProgram, commandsOf, pathOf, runCli as runInProcess } from '../../src/cli/program.js';
import { recordEngine } from '../../src/cli/supervision/engine-record.js';
import { targetKey } from '../../src/core/index.js';
import { openStore } from '../../src/store/index.js';
import { verifyCredential } from '../../src/wire/credentials.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { embeddedDefaults, repoRoot } from '../support/processes.js';

// The CLI as a script meets it: spawned from the sources in a folder of its own (so the embedded
// defaults put the store and the score files under its .evalflow), each command's exit code, its
// one error line, and its --json output. Temporal's commands are tried where no Temporal runs;
// test/cli/commands.temporal.test.ts runs them against a real engine.

/** The trace run r1 was started with. */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const home = mkdtempSync(join(tmpdir(), 'evalflow-commands-'));
const config = resolve(repoRoot, 'examples/quickstart/evalflow.config.ts');
const env = embeddedDefaults();
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = async (...args: string[]) => {
  const result = await cliInProcess(args, { cwd: home, env });
  return { ...result, errLines: result.err.trim() === '' ? [] : result.err.trim().split('\n') };
};
const json = async (...args: string[]) => {
  const result = await cli(...args);
  expect(result.err, `evalflow ${args.join(' ')}`).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.out);
};

/** A workspace with a run, an answer, a user's rating, a verdict and four ledger entries. */
beforeAll(async () => {
  const store = await openStore({ ...app, sqlitePath: join(home, '.evalflow', 'evalflow.db') });
  const tell = async (actor: object, command: object) => {
    const outcome = await store.executeUnchecked({ workspace_id: 'acme', actor, command });
    if (outcome.type !== 'recorded') throw new Error(outcome.message);
  };
  const agent = { kind: 'agent', thread_id: 't1' };
  await tell({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id: 't1' });
  await tell(agent, { type: 'start_run', run_id: 'r1', thread_id: 't1', trace_id: TRACE_ID });
  await tell(agent, {
    type: 'post_message',
    thread_id: 't1',
    message_id: 'm1',
    run_id: 'r1',
    role: 'assistant',
    content: 'Thank you for asking.',
  });
  await tell(agent, { type: 'end_run', run_id: 'r1', status: 'completed' });
  await tell(
    { kind: 'user', id: 'ada' },
    {
      type: 'rate_message',
      thread_id: 't1',
      message_id: 'm1',
      feedback_type: 'helpfulness',
      value: { helpful: true, stars: 4 },
    },
  );
  await tell(
    { kind: 'evaluator', name: 'politeness', version: '1' },
    {
      type: 'give_feedback',
      feedback_type: 'politeness',
      target: { kind: 'message', thread_id: 't1', message_id: 'm1', run_id: 'r1' },
      value: { polite: true },
    },
  );
  const message = { kind: 'message', thread_id: 't1', message_id: 'm1', run_id: 'r1' } as const;
  const settle = (
    participant: string,
    target: object,
    state: 'recorded' | 'sampled_out' | 'failed',
    reason: string | null,
    generation = 'run',
  ) =>
    store.ledger.settleEvaluation({
      workspace_id: 'acme',
      generation,
      participant,
      target_key: targetKey(target as never),
      target,
      state,
      reason,
      envelope_id: null,
    });
  await settle('evaluator:politeness@1', message, 'recorded', null);
  await settle('evaluator:answer_length@1', message, 'sampled_out', 'outside the sample rate 0.5');
  await settle('evaluator:politeness@1', { kind: 'turn', run_id: 'r2' }, 'failed', 'boom');
  await settle('evaluator:politeness@1', message, 'recorded', null, 'batch-1');
  // What the failed turn's two attempts used: one priced report, one without a price.
  const failedTurn = {
    workspace_id: 'acme',
    generation: 'run',
    participant: 'evaluator:politeness@1',
    target_key: targetKey({ kind: 'turn', run_id: 'r2' }),
  };
  for (const [attempt, model, cost_nanos] of [
    [1, 'gpt-4o', 2_500_000],
    [2, 'local', null],
  ] as const) {
    await store.usage.recordAttempt({ ...failedTurn, attempt, duration_ms: 25, failed: true });
    await store.usage.recordUsage({
      ...failedTurn,
      attempt,
      report: 0,
      model,
      input_tokens: 600,
      output_tokens: 40,
      cost_nanos,
    });
  }
  await store.close();
});

describe('every command', () => {
  const commands = commandsOf(buildProgram()).filter((command) => command.name() !== 'help');

  it.each(commands.map((command) => pathOf(command)))('answers --help: %s', async (path) => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(await runInProcess(['node', ...path.split(' '), '--help'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const help = written.join('');
    expect(help).toContain(`Usage: ${path}`);
    const leaf = commands.find((command) => pathOf(command) === path);
    if (leaf && leaf.commands.length === 0 && leaf !== commands[0])
      expect(help).toMatch(/Examples?:/);
  });

  it('prints the version from package.json', async () => {
    const { code, out } = await cli('--version');
    expect(code).toBe(0);
    expect(out).toBe('0.1.0\n');
  });
});

describe('an error', () => {
  it('is one line on stderr and exit code 1, whatever went wrong', async () => {
    const closed = await freePort();
    const cases: [string[], RegExp][] = [
      [['frob'], /^evalflow: unknown command 'frob' \(see evalflow --help\)$/],
      // --help names no command that does not exist: the same refusal, not the top help.
      [
        ['frobnicate', '--help'],
        /^evalflow: unknown command 'frobnicate' \(see evalflow --help\)$/,
      ],
      [['-h', 'frobnicate'], /^evalflow: unknown command 'frobnicate' \(see evalflow --help\)$/],
      [
        ['rules', 'frobnicate', '--help'],
        /^evalflow: unknown command 'frobnicate' \(see evalflow rules --help\)$/,
      ],
      [
        ['rules', 'set', 'answer_length@2', '--sample-rate', '2'],
        /^evalflow: option '--sample-rate <rate>' argument '2' is invalid\. a sample rate is a number from 0 to 1, not 2 \(see evalflow rules set --help\)$/,
      ],
      [
        ['ledger', '--state', 'lost'],
        /^evalflow: option '--state <state>' argument 'lost' is invalid\. Allowed choices are recorded, sampled_out, failed, skipped\. \(see evalflow ledger --help\)$/,
      ],
      [
        ['rules', 'set', 'nope@1', '--workspace', 'acme', '--config', config],
        /^evalflow: evaluator nope@1 is not deployed: add it to the config file's evaluators first, or record it as a judge version in [a-z]+ \(evalflow judges tune\)$/,
      ],
      [
        ['rules', 'set', 'answer_length'],
        /^evalflow: an evaluator version is written name@version, not answer_length$/,
      ],
      [
        ['rules', 'list', '--config', 'missing.config.ts'],
        /^evalflow: missing\.config\.ts: no such file$/,
      ],
      [
        ['scores', 'summary', '--source', 'crowd'],
        /^evalflow: option '--source <source>' argument 'crowd' is invalid\. a source is one of /,
      ],
      [
        ['reevaluate', 'start', '--workspace', 'acme', '--evaluator', 'answer_length@1'],
        /^evalflow: select the artifact versions: --kind, --artifact, --latest-only, --created-from or --created-to, or --all for every one$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--target',
          'run',
        ],
        /^evalflow: option '--target <kind>' argument 'run' is invalid\. a target is one of artifact, turn, message, thread, not run \(see evalflow reevaluate (start|budget) --help\)$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--target',
          'message',
        ],
        /^evalflow: select the targets: --thread, --ended-from, --ended-to, --status, --sample, --limit, --unjudged or --held-out-of, or --all for every one$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--target',
          'message',
          '--kind',
          'memo',
        ],
        /^evalflow: --kind, --artifact, --latest-only, --created-from and --created-to select artifacts$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--kind',
          'memo',
          '--unjudged',
        ],
        /^evalflow: --unjudged: for --target turn, message or thread$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--target',
          'turn',
          '--sample',
          '0',
        ],
        /^evalflow: option '--sample <fraction>' argument '0' is invalid\. a fraction is above 0 and at most 1, not 0 \(see evalflow reevaluate (start|budget) --help\)$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--target',
          'turn',
          '--status',
          'done',
          '--all',
        ],
        /^evalflow: a run status is one of running, paused, completed, stopped, failed, not done$/,
      ],
      [
        [
          'reevaluate',
          'start',
          '--workspace',
          'acme',
          '--evaluator',
          'answer_length@1',
          '--all',
          '--dry-run',
          '--watch',
        ],
        /^evalflow: --dry-run starts nothing: drop --watch, --batch and --max-cost-usd$/,
      ],
      [
        ['reevaluate', 'budget', 'b1', '--workspace', 'acme', '--max-cost-usd', '-3'],
        /^evalflow: option '--max-cost-usd <usd>' argument '-3' is invalid\. an amount of USD above 0, not -3 \(see evalflow reevaluate (start|budget) --help\)$/,
      ],
      [
        ['reevaluate', 'budget', 'b1', '--workspace', 'acme', '--max-cost-usd', '0.0000000001'],
        /^evalflow: option '--max-cost-usd <usd>' argument '0\.0000000001' is invalid\. an amount of USD of at least 0\.000000001, not 0\.0000000001 \(see evalflow reevaluate (start|budget) --help\)$/,
      ],
      [
        ['reevaluate', 'pause', 'b1'],
        /^evalflow: required option '--workspace <id>' not specified \(see evalflow reevaluate pause --help\)$/,
      ],
      [['keys', 'revoke', 'nope'], /^evalflow: no active key nope$/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach((result, i) => {
      const [args, pattern] = cases[i] ?? [[], /$/];
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.errLines, args.join(' ')).toHaveLength(1);
      expect(result.errLines[0]).toMatch(pattern);
      expect(result.out).toBe('');
    });

    // A preview reads the store alone: no Temporal needed. Nothing judged yet, no estimate.
    const preview = await cli(
      'reevaluate',
      'start',
      '--workspace',
      'quiet',
      '--evaluator',
      'answer_length@1',
      '--target',
      'message',
      '--all',
      '--dry-run',
      '--json',
    );
    expect(preview.code, preview.err).toBe(0);
    expect(JSON.parse(preview.out)).toEqual({
      targets: 0,
      costUsd: null,
      durationMs: 0,
      durationBasis: 'default',
      versions: [
        {
          evaluator: 'answer_length@1',
          targets: 0,
          costPerEvaluationUsd: null,
          costUsd: null,
          costBasis: 'unknown',
          meanAttemptMs: null,
          recordedAttempts: 0,
          durationBasis: 'default',
          durationMs: 0,
        },
      ],
    });

    // As text: what it counts, why there is no cost estimate, and that its duration is a default.
    const lines = await cli(
      'reevaluate',
      'start',
      '--workspace',
      'quiet',
      '--evaluator',
      'answer_length@1',
      '--target',
      'turn',
      '--all',
      '--dry-run',
    );
    expect(lines.err).toBe('');
    expect(lines.out.trim().split('\n')).toEqual([
      '0 turns',
      'answer_length@1: 0 evaluations, cost not estimated: no cost of it recorded in this workspace, and it declares no estimatedCostUsd, about 0s by default: no attempt of it recorded in this workspace, 2s an attempt assumed',
      'estimated cost none (answer_length@1 not estimated), duration 0s (by default)',
    ]);

    const unreachable = await cliInProcess(
      ['reevaluate', 'status', 'b1', '--workspace', 'acme', '--json'],
      {
        cwd: home,
        env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${closed}` },
      },
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.out).toBe('');
    expect(unreachable.err).toBe(
      `evalflow: Temporal at 127.0.0.1:${closed} did not answer; start the engine (evalflow start), or set TEMPORAL_ADDRESS to a running Temporal frontend\n`,
    );
  }, 180_000);
});

describe('rules', () => {
  it('lists the config’s defaults, sets a workspace’s own rule as system:cli, and lists it with its origin', async () => {
    const defaults = await json('rules', 'list', '--config', config, '--json');
    expect(defaults).toEqual([
      expect.objectContaining({
        workspace: null,
        evaluator: 'answer_length@1',
        targets: ['message'],
        origin: 'config',
      }),
      expect.objectContaining({
        workspace: null,
        evaluator: 'politeness@1',
        sampleRate: 1,
        idleFor: null,
        origin: 'config',
      }),
      expect.objectContaining({
        workspace: null,
        evaluator: 'resolution@1',
        targets: ['thread'],
        idleFor: '30m',
        origin: 'config',
      }),
    ]);

    const set = await json(
      'rules',
      'set',
      'answer_length@2',
      '--targets',
      'message',
      '--sample-rate',
      '0.5',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(set).toEqual([
      {
        workspace: 'acme',
        seq: expect.any(Number),
        rule: expect.objectContaining({
          evaluator: 'answer_length@2',
          targets: ['message'],
          sampleRate: 0.5,
          enabled: true,
          origin: 'workspace',
          setBy: 'system:cli',
        }),
      },
    ]);
    // --disable keeps the settings in force.
    const disabled = await json(
      'rules',
      'set',
      'answer_length@1',
      '--disable',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(disabled[0].rule).toMatchObject({ targets: ['message'], sampleRate: 1, enabled: false });

    const inForce = await json(
      'rules',
      'list',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(
      inForce.map((r: { evaluator: string; origin: string; enabled: boolean }) => [
        r.evaluator,
        r.origin,
        r.enabled,
      ]),
    ).toEqual([
      ['answer_length@1', 'workspace', false],
      ['answer_length@2', 'workspace', true],
      ['politeness@1', 'config', true],
      ['resolution@1', 'config', true],
    ]);

    const table = await cli('rules', 'list', '--config', config);
    expect(table.code).toBe(0);
    const lines = table.out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^workspace\s+evaluator\s+targets\s+rate\s+idle for\s+enabled\s+mode\s+origin\s+set by\s+set at$/,
    );
    // A rule without threads has no idle time: its cell is a dash.
    expect(lines.slice(2).map((line) => line.split(/\s+/).slice(0, 8).join(' '))).toEqual([
      '(default) answer_length@1 message 1 - yes live config',
      '(default) politeness@1 message 1 - yes live config',
      '(default) resolution@1 thread 1 30m yes live config',
      'acme answer_length@1 message 1 - no live workspace',
      'acme answer_length@2 message 0.5 - yes live workspace',
    ]);

    // Without --workspace: every workspace the store holds.
    const everywhere = await cli(
      'rules',
      'set',
      'politeness@1',
      '--sample-rate',
      '0.25',
      '--config',
      config,
    );
    expect(everywhere.out).toMatch(
      /^set politeness@1 in acme: message at 0\.25, live, enabled \(seq \d+\)\n$/,
    );

    // The confirmation names the mode it set, and then the one kept.
    const mode = (...flags: string[]) =>
      cli('rules', 'set', 'answer_length@2', '--workspace', 'acme', '--config', config, ...flags);
    expect((await mode('--mode', 'shadow')).out).toMatch(
      /^set answer_length@2 in acme: message at 0\.5, shadow, enabled \(seq \d+\)\n$/,
    );
    expect((await mode('--sample-rate', '0.5')).out).toMatch(
      /^set answer_length@2 in acme: message at 0\.5, shadow, enabled \(seq \d+\)\n$/,
    );
    expect((await mode('--mode', 'live')).out).toMatch(
      /^set answer_length@2 in acme: message at 0\.5, live, enabled \(seq \d+\)\n$/,
    );
  }, 120_000);

  it("sets a thread rule's idle time, keeps it while the rule judges threads, and refuses a bad one", async () => {
    const set = (...flags: string[]) =>
      json(
        'rules',
        'set',
        'resolution@1',
        '--workspace',
        'acme',
        '--config',
        config,
        '--json',
        ...flags,
      );
    const [longer] = await set('--idle-for', '2h');
    expect(longer.rule).toMatchObject({ targets: ['thread'], idleFor: '2h', origin: 'workspace' });
    // Flags not given keep the rule in force, its idle time too.
    const [rated] = await set('--sample-rate', '0.5');
    expect(rated.rule).toMatchObject({ sampleRate: 0.5, idleFor: '2h' });
    const text = await cli(
      'rules',
      'set',
      'resolution@1',
      '--workspace',
      'acme',
      '--config',
      config,
    );
    expect(text.out).toMatch(
      /^set resolution@1 in acme: thread at 0\.5, threads quiet for 2h, live, enabled \(seq \d+\)\n$/,
    );
    const bad = await cli(
      'rules',
      'set',
      'resolution@1',
      '--idle-for',
      '2 hours',
      '--config',
      config,
    );
    expect([bad.code, bad.errLines]).toEqual([
      1,
      [
        "evalflow: option '--idle-for <duration>' argument '2 hours' is invalid. a duration is whole numbers with units (ms, s, m, h, d), such as '30m' or '1h30m', not '2 hours' (see evalflow rules set --help)",
      ],
    ]);
    const notThreads = await cli(
      'rules',
      'set',
      'politeness@1',
      '--idle-for',
      '2h',
      '--workspace',
      'acme',
      '--config',
      config,
    );
    expect([notThreads.code, notThreads.errLines]).toEqual([
      1,
      [
        'evalflow: acme: politeness@1: idle_for (idleFor) applies only to rules that target thread, not to message',
      ],
    ]);
    await set('--idle-for', '30m', '--sample-rate', '1');
  }, 120_000);

  it('refuses to set a rule in every workspace of a store that has none', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'evalflow-commands-empty-'));
    try {
      const result = await cliInProcess(['rules', 'set', 'politeness@1', '--config', config], {
        cwd: empty,
        env,
      });
      expect([result.code, result.err]).toEqual([
        1,
        'evalflow: the store has no workspaces yet: name one with --workspace (new workspaces follow the config file’s rules)\n',
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('ledger', () => {
  it('prints the entries as JSON in the API’s shape, filtered by state, run and generation', async () => {
    const [all, failed, run, batch] = await Promise.all([
      json('ledger', '--json'),
      json('ledger', '--state', 'failed', '--json'),
      json('ledger', '--workspace', 'acme', '--run', 'r1', '--json'),
      json('ledger', '--generation', 'batch-1', '--json'),
    ]);
    expect(all).toHaveLength(4);
    expect(failed).toEqual([
      {
        workspace: 'acme',
        generation: 'run',
        evaluator: 'politeness@1',
        target: { kind: 'turn', runId: 'r2' },
        state: 'failed',
        reason: 'boom',
        eventId: null,
        settledAt: expect.any(String),
        usage: {
          attempts: 2,
          durationMs: 50,
          inputTokens: 1200,
          outputTokens: 80,
          costUsd: 0.0025,
          unpricedReports: 1,
        },
      },
    ]);
    expect(
      run
        .map((e: { evaluator: string; generation: string }) => `${e.generation} ${e.evaluator}`)
        .sort(),
    ).toEqual(['batch-1 politeness@1', 'run answer_length@1', 'run politeness@1']);
    expect(batch).toHaveLength(1);
  }, 60_000);

  it('prints a table with each state’s reason and what judging it used', async () => {
    const { code, out } = await cli('ledger', '--state', 'sampled_out');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines.map((line) => line.split(/\s{2,}/))).toEqual([
      [
        'workspace',
        'generation',
        'evaluator',
        'target',
        'state',
        'reason',
        'attempts',
        'tokens in/out',
        'cost',
        'duration',
      ],
      expect.any(Array),
      [
        'acme',
        'run',
        'answer_length@1',
        'message t1/m1',
        'sampled_out',
        'outside the sample rate 0.5',
        '0',
        '0/0',
        '$0.000000',
        '0 ms',
      ],
    ]);
    const failed = await cli('ledger', '--state', 'failed');
    expect(
      failed.out
        .trim()
        .split('\n')[2]
        ?.split(/\s{2,}/)
        .slice(-4),
    ).toEqual(['2', '1200/80', '$0.002500 + 1 unpriced', '50 ms']);
  });
});

describe('ledger of a thread', () => {
  it("lists a thread's generations in the order they were judged", async () => {
    const store = await openStore({ ...app, sqlitePath: join(home, '.evalflow', 'evalflow.db') });
    try {
      for (const generation of ['thread:12', 'thread:4']) {
        await store.ledger.settleEvaluation({
          workspace_id: 'acme',
          generation,
          participant: 'evaluator:resolution@1',
          target_key: targetKey({ kind: 'thread', thread_id: 't1' }),
          target: { kind: 'thread', thread_id: 't1' },
          state: 'recorded',
          reason: null,
          envelope_id: null,
        });
      }
    } finally {
      await store.close();
    }
    const entries = await json('ledger', '--thread', 't1', '--json');
    expect(
      entries.map((e: { generation: string; target: unknown }) => [e.generation, e.target]),
    ).toEqual([
      ['thread:4', { kind: 'thread', threadId: 't1' }],
      ['thread:12', { kind: 'thread', threadId: 't1' }],
    ]);
    const { out } = await cli('ledger', '--thread', 't1');
    expect(
      out
        .trim()
        .split('\n')
        .slice(2)
        .map((line) => line.split(/\s+/).slice(0, 5).join(' ')),
    ).toEqual(['acme thread:4 resolution@1 thread t1', 'acme thread:12 resolution@1 thread t1']);
  });
});

describe('runs and threads', () => {
  it('lists runs as the API does, with the summary of their own evaluation, filtered', async () => {
    const [all, paused] = await Promise.all([
      json('runs', 'list', '--json'),
      json('runs', 'list', '--status', 'paused', '--json'),
    ]);
    expect(all).toEqual([
      {
        workspace: 'acme',
        run: expect.objectContaining({ runId: 'r1', threadId: 't1', status: 'completed' }),
        evaluations: { recorded: 1, sampled_out: 1, failed: 0, skipped: 0 },
      },
    ]);
    expect(paused).toEqual([]);
    // An OpenTelemetry trace's runs (docs/traces.md): by the trace id among a run's trace ids.
    const [ofTrace, ofOther] = await Promise.all([
      json('runs', 'list', '--trace', TRACE_ID, '--json'),
      json('runs', 'list', '--trace', 'f'.repeat(32), '--json'),
    ]);
    expect(ofTrace.map((r: { run: { runId: string } }) => r.run.runId)).toEqual(['r1']);
    // By trace, with its steps (none: r1 was reported through the API, not by spans).
    expect(ofTrace[0]).toMatchObject({ steps: [], stepsOmitted: 0 });
    expect(ofOther).toEqual([]);
    const table = await cli('runs', 'list', '--workspace', 'acme');
    expect(table.out.split('\n')[0]).toMatch(
      /^workspace +run +thread +status +started +updated +recorded +sampled_out +failed +skipped$/,
    );
    const traced = await cli('runs', 'list', '--trace', TRACE_ID);
    expect(traced.out.split('\n')[0]).toMatch(/ skipped +steps$/);
    expect(traced.out.split('\n')[2]).toMatch(/ 0$/);
    expect(await json('threads', 'list', '--json')).toEqual([
      {
        workspace: 'acme',
        threadId: 't1',
        title: null,
        createdAt: expect.any(String),
        endedAt: null,
      },
    ]);
  });

  it('refuses an unknown status and a bad instant with one line', async () => {
    const status = await cli('runs', 'list', '--status', 'done');
    expect(status.code).toBe(1);
    expect(status.errLines).toHaveLength(1);
    expect(status.errLines[0]).toContain('done');
    const when = await cli('runs', 'list', '--ended-from', 'yesterday');
    expect(when.code).toBe(1);
    expect(when.errLines[0]).toContain('an ISO-8601 instant with a time zone');
  });
});

describe('scores', () => {
  it('summarizes by population as GET /v1/scores/summary does', async () => {
    const groups = await json(
      'scores',
      'summary',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(groups).toEqual(
      expect.arrayContaining([
        {
          workspace: 'acme',
          source: 'SCORE_SOURCE_USER',
          producer: null,
          sourceLabel: null,
          shadow: false,
          name: 'helpfulness.stars',
          declared: true,
          comparable: true,
          count: 1,
          mean: 4,
          distribution: null,
        },
        {
          workspace: 'acme',
          source: 'SCORE_SOURCE_JUDGE',
          producer: 'politeness@1',
          sourceLabel: null,
          shadow: false,
          name: 'politeness.polite',
          declared: true,
          comparable: true,
          count: 1,
          mean: 1,
          distribution: { true: 1 },
        },
      ]),
    );
    const users = await json('scores', 'summary', '--source', 'user', '--config', config, '--json');
    expect(users.map((g: { name: string }) => g.name).sort()).toEqual([
      'helpfulness.helpful',
      'helpfulness.stars',
    ]);
    const table = await cli('scores', 'summary', '--config', config);
    expect(table.out).toMatch(
      /^workspace\s+source\s+producer\s+label\s+score\s+count\s+mean\s+distribution$/m,
    );
    expect(table.out).toMatch(
      /^acme\s+JUDGE\s+politeness@1\s+-\s+politeness\.polite\s+1\s+1\s+true:1$/m,
    );
  }, 60_000);

  it('syncs the app’s score configs into the sink once', async () => {
    const first = await json('scores', 'sync-configs', '--config', config, '--json');
    expect(first.created).toContain('helpfulness.stars');
    expect(first.archived).toEqual([]);
    expect(await json('scores', 'sync-configs', '--config', config, '--json')).toEqual({
      created: [],
      archived: [],
    });
    const lines = await cli('scores', 'sync-configs', '--config', config);
    expect(lines.out.trim().split('\n').slice(1)).toEqual(['created 0', 'archived 0']);
  }, 60_000);
});

describe('queues and reviewers', () => {
  it('lists a workspace’s queues with progress, adds targets once each, and shows who did what', async () => {
    const listed = await json(
      'queues',
      'list',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(listed).toMatchObject([
      { queueId: 'runs', origin: 'config', targetKinds: ['turn'], progress: { items: 0 } },
    ]);
    const added = await json(
      'queues',
      'add',
      'runs',
      '--workspace',
      'acme',
      '--runs',
      'r1',
      '--config',
      config,
      '--json',
    );
    expect(added).toMatchObject({
      added: 1,
      alreadyQueued: 0,
      items: [{ target: { kind: 'turn', runId: 'r1' }, added: true }],
    });
    expect(
      await json(
        'queues',
        'add',
        'runs',
        '--workspace',
        'acme',
        '--all',
        'turn',
        '--status',
        'completed',
        '--config',
        config,
        '--json',
      ),
    ).toEqual({ added: 0, alreadyQueued: 1 });
    const again = await cli(
      'queues',
      'add',
      'runs',
      '--workspace',
      'acme',
      '--runs',
      'r1',
      '--config',
      config,
    );
    expect(again.out).toBe('added 0 to review queue runs; 1 were queued already\n');
    const shown = await json(
      'queues',
      'show',
      'runs',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(shown).toMatchObject({
      queue: { queueId: 'runs', routing: [{ kind: 'completed_runs', sampleRate: 0.1 }] },
      progress: { items: 1, itemsDone: 0, pending: 1, leased: 0, done: 0 },
      reviewers: [],
    });
    const table = await cli('queues', 'list', '--workspace', 'acme', '--config', config);
    expect(table.out).toMatch(/^queue\s+feedback type\s+targets\s+per item\s+items/m);
    expect(table.out).toMatch(
      /^runs\s+review_verdict\s+turn\s+1\s+1\s+0\s+1\s+0\s+0\s+0\s+0\s+config$/m,
    );
    const text = await cli('queues', 'show', 'runs', '--workspace', 'acme', '--config', config);
    expect(text.out).toContain(
      'runs: review_verdict on turn, 1 reviewer per item, blind, leases of 900 s (config)',
    );
    expect(text.out).toContain('no reviewer has taken an item yet');
  }, 60_000);

  it('refuses what cannot be queued with one line, adding nothing', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['queues', 'add', 'runs', '--workspace', 'acme', '--config', config],
        /^evalflow: name targets \(--runs, --messages, --artifacts, --threads\) or a filter \(--all <kind>\), one of the two$/,
      ],
      [
        [
          'queues',
          'add',
          'runs',
          '--workspace',
          'acme',
          '--runs',
          'r1',
          '--all',
          'turn',
          '--config',
          config,
        ],
        /one of the two$/,
      ],
      [
        ['queues', 'add', 'runs', '--workspace', 'acme', '--messages', 't1/m1', '--config', config],
        /^evalflow: review queue runs takes turn targets, not message$/,
      ],
      [
        ['queues', 'add', 'runs', '--workspace', 'acme', '--runs', 'r1,nope', '--config', config],
        /^evalflow: acme: run nope does not exist$/,
      ],
      [
        [
          'queues',
          'add',
          'runs',
          '--workspace',
          'acme',
          '--all',
          'turn',
          '--role',
          'user',
          '--config',
          config,
        ],
        /^evalflow: --role goes with --all message, not --all turn$/,
      ],
      [
        [
          'queues',
          'add',
          'runs',
          '--workspace',
          'acme',
          '--all',
          'turn',
          '--status',
          'lost',
          '--config',
          config,
        ],
        /^evalflow: --status is some of running, paused, completed, stopped, failed, not lost$/,
      ],
      [
        ['queues', 'add', 'runs', '--workspace', 'acme', '--artifacts', 'a1@0', '--config', config],
        /^evalflow: --artifacts are id@version \(a version from 1\), not a1@0$/,
      ],
      [
        ['queues', 'show', 'nope', '--workspace', 'acme', '--config', config],
        /^evalflow: no review queue nope in workspace acme: see evalflow queues list$/,
      ],
      [
        ['queues', 'list', '--config', config],
        /^evalflow: required option '--workspace <id>' not specified/,
      ],
      [
        ['reviewers', 'link', '--workspace', 'acme', '--reviewer', 'grace', '--expires-in', '10s'],
        /^evalflow: option '--expires-in <duration>' argument '10s' is invalid\. a duration from 60s to 24h, written like 30m, 8h or 1d, not 10s/,
      ],
      [
        [
          'reviewers',
          'link',
          '--workspace',
          'acme',
          '--reviewer',
          'grace',
          '--base-url',
          'nowhere',
        ],
        /^evalflow: --base-url is a URL such as http:\/\/127\.0\.0\.1:8787, not nowhere$/,
      ],
      [
        ['reviewers', 'link', '--workspace', 'acme'],
        /^evalflow: name the reviewer \(--reviewer <id>\) or make an admin’s link \(--admin\): one of them$/,
      ],
      [
        ['reviewers', 'link', '--workspace', 'acme', '--reviewer', 'grace', '--admin'],
        /^evalflow: name the reviewer \(--reviewer <id>\) or make an admin’s link \(--admin\): one of them$/,
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach((result, i) => {
      const [args, pattern] = cases[i] ?? [[], /$/];
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.errLines, args.join(' ')).toHaveLength(1);
      expect(result.errLines[0]).toMatch(pattern);
    });
    const shown = await json(
      'queues',
      'show',
      'runs',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(shown.progress.items).toBe(1);
  }, 120_000);

  it('prints a reviewer’s sign-in link: the page’s URL with a short-lived token in its fragment', async () => {
    const before = Date.now();
    const link = await json(
      'reviewers',
      'link',
      '--workspace',
      'acme',
      '--reviewer',
      'grace',
      '--expires-in',
      '30m',
      '--json',
    );
    expect(link.url).toMatch(
      /^http:\/\/127\.0\.0\.1:8787\/ui\/#token=esi_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/,
    );
    expect(link.principal).toBe('reviewer:grace');
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expires).toBeLessThan(Date.now() + 30 * 60_000 + 1000);
    const store = await openStore({ ...app, sqlitePath: join(home, '.evalflow', 'evalflow.db') });
    try {
      const token = String(link.url).split('#token=')[1] as string;
      expect(await verifyCredential(store, token, new Date())).toMatchObject({
        kind: 'sign_in',
        workspaceId: 'acme',
        principal: { kind: 'reviewer', id: 'grace' },
      });
      expect(await verifyCredential(store, token, new Date(expires + 1))).toEqual({
        refused: 'the credential has expired',
      });
    } finally {
      await store.close();
    }
    const text = await cli(
      'reviewers',
      'link',
      '--workspace',
      'acme',
      '--reviewer',
      'grace',
      '--base-url',
      'https://review.example.com/',
    );
    expect(text.out.split('\n')[1]).toMatch(/^https:\/\/review\.example\.com\/ui\/#token=esi_/);
  }, 60_000);

  it('prints an admin’s sign-in link: acting as admin, and saying so to the page', async () => {
    const link = await json('reviewers', 'link', '--workspace', 'acme', '--admin', '--json');
    expect(link.url).toMatch(
      /^http:\/\/127\.0\.0\.1:8787\/ui\/#token=esi_[0-9a-f]{32}_[A-Za-z0-9_-]{32}&as=admin$/,
    );
    expect(link.principal).toBe('admin');
    const store = await openStore({ ...app, sqlitePath: join(home, '.evalflow', 'evalflow.db') });
    try {
      const token = /#token=([^&]+)/.exec(String(link.url))?.[1] as string;
      expect(await verifyCredential(store, token, new Date())).toMatchObject({
        kind: 'sign_in',
        workspaceId: 'acme',
        principal: { kind: 'admin' },
      });
    } finally {
      await store.close();
    }
  }, 60_000);

  it('points a sign-in link at the API of the engine running from the folder, on its own port', async () => {
    // An engine started with `--api-port 39395` records where its API answers; this process
    // stands for it (the record names a process that runs).
    const forget = recordEngine(join(home, '.evalflow'), {
      configFile: null,
      source: 'the built-in evaluators',
      apiUrl: 'http://127.0.0.1:39395',
    });
    try {
      const link = await json(
        'reviewers',
        'link',
        '--workspace',
        'acme',
        '--reviewer',
        'grace',
        '--json',
      );
      expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:39395\/ui\/#token=esi_/);
    } finally {
      forget();
    }
    // With no engine running, the environment's address.
    const alone = await json(
      'reviewers',
      'link',
      '--workspace',
      'acme',
      '--reviewer',
      'grace',
      '--json',
    );
    expect(alone.url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/ui\/#token=esi_/);
  }, 60_000);
});
