import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/cli/commands/conformance.js';

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

/** Runs the real CLI from the sources, as `node --import tsx src/cli/main.ts` does. */
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: process.cwd(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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

  it('exits non-zero from the real CLI, printing the one line and no zod dump', async () => {
    const { code, stdout, stderr } = await cli('conformance', passing, malformed);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n')).toEqual([
      `ok   ${passing} › a thread is created`,
      `FAIL ${malformed}: case 2 ("an evaluator only gives feedback"): expect.outcome: expected an object, got 3`,
      '1 passed, 1 failed',
    ]);
    expect(stderr).toBe('');
  });

  it('exits zero from the real CLI when every case passes', async () => {
    const { code, stdout } = await cli('conformance', passing);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
  });
});
