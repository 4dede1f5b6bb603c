import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { withStartRetries } from './temporal.js';

const scratch = mkdtempSync(join(tmpdir(), 'evalflow-slow-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The real CLI behind a script that, on its first start only, waits `delaySeconds` first: what a
 * loaded machine does to a server's start.
 */
function slowFirstStart(delaySeconds: number): string {
  const cli = inject('temporalCli');
  if (cli.source === 'sdk-download') throw new Error('npm run setup installs the temporal CLI');
  const marker = join(scratch, 'started-once');
  const script = join(scratch, 'temporal');
  writeFileSync(
    script,
    `#!/bin/sh\nif [ ! -e '${marker}' ]; then touch '${marker}'; sleep ${delaySeconds}; fi\nexec '${cli.path}' "$@"\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

describe('starting a Temporal server', () => {
  it('starts again, and says so, when the first start misses the SDK’s 5 s window', async () => {
    const path = slowFirstStart(7);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const start = () =>
      TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path },
          ip: '127.0.0.1',
          log: { format: 'pretty', level: 'error' },
          extraArgs: ['--output', 'none'],
        },
      });
    const env = await withStartRetries(start);
    try {
      expect(existsSync(join(scratch, 'started-once'))).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/attempt 1 of 3: .*did not start within/);
      const { workflowService } = env.client.connection;
      await expect(workflowService.getSystemInfo({})).resolves.toBeDefined();
    } finally {
      warn.mockRestore();
      await env.teardown();
    }
  });

  it('does not retry a failure other than a slow start, nor past its third attempt', async () => {
    const broken = vi.fn(async () => {
      throw new Error('unknown flag --bogus');
    });
    await expect(withStartRetries(broken)).rejects.toThrow('unknown flag --bogus');
    expect(broken).toHaveBeenCalledTimes(1);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const slow = vi.fn(async () => {
      throw new Error('ephemeral server at 127.0.0.1:1 did not start within 5s');
    });
    await expect(withStartRetries(slow)).rejects.toThrow('did not start within 5s');
    expect(slow).toHaveBeenCalledTimes(3);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
