import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults } from '../support/processes.js';

// A tracing setting that cannot work stops each engine process at start, before anything runs:
// one line naming the variable, exit code 1, no dev server, no store, no tracer provider.

const home = mkdtempSync(join(tmpdir(), 'evalflow-tracing-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('evalflow start, worker and api with a bad tracing setting', () => {
  const cases: [Record<string, string>, string][] = [
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'evalflow: OTEL_EXPORTER_OTLP_ENDPOINT is an http(s) URL, not collector:4318',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'evalflow: OTEL_EXPORTER_OTLP_PROTOCOL is grpc, but evalflow exports its own spans as http/protobuf only; set it to http/protobuf or unset it',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:8787' },
      "evalflow: evalflow's own spans would go to its own OTLP receiver (http://127.0.0.1:8787/v1/traces), where each evaluation would be judged in turn; point OTEL_EXPORTER_OTLP_ENDPOINT at a collector or backend, or unset it in evalflow's environment",
    ],
  ];
  for (const command of ['start', 'worker', 'api']) {
    for (const [settings, line] of cases) {
      it(`${command} with ${JSON.stringify(settings)}`, async () => {
        const result = await cliInProcess([command], {
          cwd: home,
          env: { ...embeddedDefaults(), ...settings },
        });
        expect(result).toEqual({ code: 1, out: '', err: `${line}\n` });
        expect(existsSync(join(home, '.evalflow'))).toBe(false);
        expect(trace.getTracer('cli').startSpan('x').isRecording()).toBe(false);
      });
    }
  }
});
