import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { bundleWorkflows, startTracing } from '../../src/worker/index.js';
import { workflowBundle } from '../support/temporal.js';

// Histories recorded from the workflow tests (EVALFLOW_RECORD_HISTORIES=1) replay against the
// current workflow code: a change that breaks determinism fails here, before it breaks runs in
// flight. No server is needed.
const dir = fileURLToPath(new URL('./histories/', import.meta.url));
const histories = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('replaying recorded histories', () => {
  // A workflow may have several (`mirror.json`, `mirror.deletes.json`): one per path worth pinning.
  it('has a history for every workflow', () => {
    expect([...new Set(histories.map((file) => file.split('.')[0]))].sort()).toEqual([
      'evaluateRun',
      'evaluateThread',
      'ingestTrace',
      'mirror',
      'reevaluate',
      'review',
    ]);
  });

  for (const file of histories) {
    it(`replays ${file} without a determinism violation`, async () => {
      const history = JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
      await Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, file);
    });
  }
});

// Turning evalflow's own tracing on adds Temporal's OpenTelemetry interceptors to the workflow
// code: the histories of runs in flight, recorded without them, must replay with them too.
describe('replaying recorded histories with the workflows traced', () => {
  let traced: WorkflowBundle;
  beforeAll(async () => {
    traced = await bundleWorkflows({ tracing: true });
  }, 120_000);

  for (const file of histories) {
    it(`replays ${file} without a determinism violation`, async () => {
      const settings = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }).tracing;
      if (settings === null) throw new Error('an endpoint is set');
      const tracing = await startTracing(settings);
      try {
        const history = JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
        await Worker.runReplayHistory(
          { workflowBundle: traced, ...tracing.workerOptions(true) },
          history,
          file,
        );
      } finally {
        // Nothing was exported (a replay's spans are not), so nothing waits on the endpoint.
        await tracing.shutdown();
      }
    });
  }
});
