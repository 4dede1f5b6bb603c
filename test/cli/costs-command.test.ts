import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgesApp } from '../evidence/stored-verdicts.js';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults } from '../support/processes.js';
import { seedSpend } from '../support/spend.js';

// `evalflow costs` as a script meets it, spawned in a folder of its own on usage recorded on
// known UTC days (test/support/spend.ts), in two workspaces.

const home = mkdtempSync(join(tmpdir(), 'evalflow-costs-'));
const env = embeddedDefaults();
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = async (...args: string[]) => cliInProcess(args, { cwd: home, env });

beforeAll(async () => {
  await seedSpend(join(home, '.evalflow', 'evalflow.db'), judgesApp.feedbackTypes);
});

describe('evalflow costs', () => {
  it('prints spend per version and day across workspaces, with a total, unknown money said', async () => {
    const { code, out, err } = await cli('costs');
    expect([code, err]).toEqual([0, '']);
    const rows = out
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(rows).toEqual([
      ['evaluator', 'day', 'evaluations', 'input tokens', 'output tokens', 'cost', 'unpriced'],
      expect.any(Array),
      ['politeness@1', '2026-05-01', '2', '1500', '300', '$0.001500', '1'],
      ['politeness@1', '2026-05-02', '1', '100', '10', '$0.000100', '0'],
      ['politeness@2', '2026-05-02', '1', '2100', '310', '$0.003010', '0'],
      ['total', '', '4', '3700', '620', '$0.004610', '1'].filter((cell) => cell !== ''),
    ]);
  });

  it('says unknown, not $0, where no report had a price', async () => {
    const { code, out } = await cli('costs', '--by', 'model', '--workspace', 'ws');
    expect(code).toBe(0);
    expect(
      out
        .split('\n')
        .find((line) => line.startsWith('local'))
        ?.split(/\s{2,}/),
    ).toEqual(['local', '1', '500', '100', 'unknown', '1']);
  });

  it('prints the API’s answer with --json, filtered by evaluator version, workspace and days', async () => {
    const { code, out, err } = await cli(
      'costs',
      '--evaluator',
      'politeness@1',
      '--workspace',
      'ws',
      '--by',
      'evaluator,day',
      '--from',
      '2026-05-01',
      '--to',
      '2026-05-01',
      '--json',
    );
    expect([code, err]).toEqual([0, '']);
    const reply = JSON.parse(out);
    expect(reply).toMatchObject({ by: ['evaluator', 'day'], workspace: 'ws', from: '2026-05-01' });
    expect(reply.rows).toEqual([
      expect.objectContaining({ evaluator: 'politeness', day: '2026-05-01', costUsd: 0.0015 }),
    ]);
  });

  it('refuses bad flags as usage errors, naming what is wrong', async () => {
    for (const [args, message] of [
      [['--by', 'cost'], /--by.*a comma list of version, evaluator, workspace, day, model/],
      [['--by', 'version,evaluator'], /version or by evaluator, not both/],
      [['--from', 'May 1'], /a UTC day written 2026-05-01, not May 1/],
      [['--evaluator', 'a@b@c'], /name or name@version/],
      [
        ['--from', '2026-05-03', '--to', '2026-05-01'],
        /--from 2026-05-03 is after --to 2026-05-01/,
      ],
    ] as const) {
      const { code, out, err } = await cli('costs', ...args);
      expect([args, code, out]).toEqual([args, expect.any(Number), '']);
      expect(code).not.toBe(0);
      expect(err).toMatch(message);
    }
  });
});
