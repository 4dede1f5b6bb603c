import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { devServerEnvironment, fileNamespace } from './temporal.js';
import { namespaceOf, startTimeSkippingServer, temporalTestFiles } from './temporal-servers.js';

const scratch = mkdtempSync(join(tmpdir(), 'evalflow-slow-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A script that runs `body` in place of a server: what a loaded machine or a broken one does. */
function script(name: string, body: string): string {
  const path = join(scratch, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function testServerPath(): string {
  const binary = inject('temporalTestServer');
  if (!('path' in binary)) throw new Error('npm run setup installs the temporal-test-server');
  return binary.path;
}

describe('a time-skipping test server', () => {
  it('is waited on for as long as it takes to answer, past the SDK’s fixed 5 s', async () => {
    const slow = script('slow-test-server', `sleep 7; exec '${testServerPath()}' "$@"`);
    const startedAt = Date.now();
    const server = await startTimeSkippingServer(slow);
    try {
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(7_000);
      const connection = await Connection.connect({ address: server.address });
      await expect(connection.workflowService.getSystemInfo({})).resolves.toBeDefined();
      await connection.close();
    } finally {
      await server.stop();
    }
  });

  it('fails at once, naming its exit, when it exits before it answers', async () => {
    const broken = script('broken-test-server', 'echo "unknown flag" >&2; exit 3');
    await expect(startTimeSkippingServer(broken)).rejects.toThrow(/exited with code 3/);
  });
});

describe('the shared dev server', () => {
  it('holds a namespace for every temporal test file, named by its path', async () => {
    expect(namespaceOf('test/api/api.temporal.test.ts')).toBe('test-api-api');
    expect(temporalTestFiles()).toContain('test/support/temporal.temporal.test.ts');
    const env = await devServerEnvironment();
    try {
      expect(env.namespace).toBe(fileNamespace());
      expect(env.namespace).toBe('test-support-temporal');
      const { workflowService } = env.client.connection;
      for (const file of temporalTestFiles()) {
        const { namespaceInfo } = await workflowService.describeNamespace({
          namespace: namespaceOf(file),
        });
        expect(namespaceInfo?.name).toBe(namespaceOf(file));
      }
    } finally {
      await env.teardown();
    }
    expect(inject('sharedDevServerAddress')).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
