import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/cli/commands/conformance.js';
import { cliInProcess } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'evalflow-conformance-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function caseFile(name: string, body: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  return path;
}

const passing = caseFile('passing.json', {
  description: 'one rule',
  cases: [
    {
      name: 'a thread is created',
      actor: { kind: 'system', name: 'host' },
      command: { type: 'create_thread', thread_id: 't1' },
      expect: { outcome: { type: 'recorded' }, events: [{ type: 'thread_created' }] },
    },
  ],
});
const malformed = caseFile('malformed.json', {
  description: 'a case whose expectation is not an object',
  cases: [
    {
      name: 'a thread is created',
      actor: { kind: 'system', name: 'host' },
      command: { type: 'create_thread', thread_id: 't1' },
      expect: { outcome: { type: 'recorded' } },
    },
    {
      name: 'an evaluator only gives feedback',
      actor: { kind: 'evaluator', name: 'tone', version: '2' },
      command: { type: 'create_thread', thread_id: 't9' },
      expect: { outcome: 3 },
    },
  ],
});

async function linesOf(files: string[]): Promise<{ failed: number; lines: string[] }> {
  const lines: string[] = [];
  const failed = await runConformance(files, (line) => lines.push(line));
  return { failed, lines };
}

/** `evalflow ARGS...`, in this process. */
const cli = (...args: string[]) => cliInProcess(args, { cwd: process.cwd(), env: process.env });

describe('evalflow conformance on a file that is not a case file', () => {
  it('names the file, the case by number and name, the field and the problem, on one line', async () => {
    const { failed, lines } = await linesOf([malformed]);
    expect(failed).toBe(1);
    expect(lines).toEqual([
      `FAIL ${malformed}: case 2 ("an evaluator only gives feedback"): expect.outcome: expected an object, got 3`,
      '0 passed, 1 failed',
    ]);
  });

  it('says a file is not JSON with the parser’s reason, on one line', async () => {
    const notJson = caseFile('not-json.json', '{\n  "description": "d",\n  "cases": [ }\n');
    const { failed, lines } = await linesOf([notJson]);
    expect(failed).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^FAIL ${notJson}: not JSON: \\S`));
    expect(lines[0]).not.toContain('\n');
  });

  it('says a missing file is missing', async () => {
    const missing = join(dir, 'missing.json');
    expect(await linesOf([missing])).toEqual({
      failed: 1,
      lines: [`FAIL ${missing}: no such file`, '0 passed, 1 failed'],
    });
  });

  it('goes on with the next file after one that is not a case file', async () => {
    const { failed, lines } = await linesOf([join(dir, 'missing.json'), passing]);
    expect(failed).toBe(1);
    expect(lines.slice(1)).toEqual([`ok   ${passing} › a thread is created`, '1 passed, 1 failed']);
  });

  it('exits non-zero from the command line, printing the one line and no zod dump', async () => {
    const { code, out, err } = await cli('conformance', passing, malformed);
    expect(code).toBe(1);
    expect(out.trimEnd().split('\n')).toEqual([
      `ok   ${passing} › a thread is created`,
      `FAIL ${malformed}: case 2 ("an evaluator only gives feedback"): expect.outcome: expected an object, got 3`,
      '1 passed, 1 failed',
    ]);
    expect(err).toBe('');
  });

  it('exits zero from the command line when every case passes', async () => {
    const { code, out } = await cli('conformance', passing);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
  });
});
