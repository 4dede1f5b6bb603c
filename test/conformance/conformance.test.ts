import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/cli/commands/conformance.js';
import { openSqliteStore } from '../../src/store/index.js';
import { runCaseOnCore, storeCaseRunner } from '../../src/testing/index.js';
import { files, suites } from './suites.js';

// Every case file on the core alone and on SQLite; conformance.postgres.test.ts runs them on
// Postgres.

const sqlite = storeCaseRunner((options) => openSqliteStore(':memory:', options));
afterAll(() => sqlite.close());

for (const suite of suites) {
  describe(`${suite.file}: ${suite.description}`, () => {
    suite.cases.forEach((testCase, index) => {
      it(`${testCase.name} (on the core alone, state serialized between envelopes)`, () => {
        expect(runCaseOnCore(testCase)).toEqual([]);
      });
      it(`${testCase.name} (on SQLite)`, async () => {
        expect(await sqlite.run(testCase, `${suite.file}#${index}`)).toEqual([]);
      });
    });
  });
}

describe('evalflow conformance', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-conformance-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one line per case and passes every case file here', async () => {
    const lines: string[] = [];
    const failed = await runConformance(files, (line) => lines.push(line));
    const total = suites.reduce((n, suite) => n + suite.cases.length, 0);
    expect(failed).toBe(0);
    expect(lines.filter((line) => line.startsWith('ok '))).toHaveLength(total);
  });

  it('counts a case whose expectation is not met, and a file that is not a case file', async () => {
    const wrong = join(dir, 'wrong.json');
    writeFileSync(
      wrong,
      JSON.stringify({
        description: 'a deliberately wrong expectation',
        cases: [
          {
            name: 'a thread is not found when it exists',
            actor: { kind: 'system' },
            given: { threads: [{ id: 't1' }] },
            command: { type: 'create_thread', thread_id: 't1' },
            expect: { rejection: { type: 'not_found' } },
          },
          {
            name: 'a thread is created',
            actor: { kind: 'system' },
            command: { type: 'create_thread', thread_id: 't1' },
            expect: {
              outcome: { type: 'recorded' },
              events: [{ type: 'thread_created' }, { type: 'thread_created' }],
            },
          },
          {
            name: 'a thread is created in no thread',
            actor: { kind: 'system' },
            command: { type: 'create_thread', thread_id: 't1' },
            expect: { outcome: { type: 'recorded' }, envelopes: [{ thread_id: null }] },
          },
        ],
      }),
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"cases": 3}');
    const lines: string[] = [];
    expect(await runConformance([wrong, broken], (line) => lines.push(line))).toBe(4);
    expect(lines[0]).toContain('$rejection.type: expected "not_found", got "conflict"');
    expect(lines[1]).toContain('$events: expected 2 items, got 1');
    expect(lines[2]).toContain('$envelopes[0].thread_id: expected null, got "t1"');
    expect(lines[3]).toMatch(/^FAIL .*broken\.json: not a case file/);
  });
});
