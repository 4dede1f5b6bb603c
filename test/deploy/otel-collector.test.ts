import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The Collector configuration docs/traces.md points to, checked as data (no Collector runs here):
// one traces pipeline to both Langfuse and evalflow, content logs to evalflow, each exporter where
// its backend listens, with the credential its backend reads, retrying, on loopback.

interface Exporter {
  endpoint: string;
  headers?: Record<string, string>;
  compression?: string;
  retry_on_failure?: { enabled?: boolean };
  sending_queue?: { enabled?: boolean };
}
interface CollectorConfig {
  receivers: { otlp: { protocols: { http: { endpoint: string } } } };
  exporters: Record<string, Exporter>;
  service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
}

const config = parse(readFileSync('deploy/otel-collector/config.yaml', 'utf8')) as CollectorConfig;
/** The Collector's own `${env:NAME}` syntax. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the Collector's syntax, not a template
const env = (name: string) => '${env:NAME}'.replace('NAME', name);
const exporter = (name: string): Exporter => {
  const found = config.exporters[name];
  if (!found) throw new Error(`no exporter ${name}`);
  return found;
};

describe('deploy/otel-collector/config.yaml', () => {
  it('sends the same spans to Langfuse and evalflow, and content logs to evalflow', () => {
    expect(config.service.pipelines.traces?.exporters.sort()).toEqual([
      'otlphttp/evalflow',
      'otlphttp/langfuse',
    ]);
    expect(config.service.pipelines.logs?.exporters).toEqual(['otlphttp/evalflow']);
    expect(config.receivers.otlp.protocols.http.endpoint).toBe('127.0.0.1:4318');
  });

  it("reaches evalflow's receiver with an agent key, and Langfuse's OTLP endpoint with its Basic auth", () => {
    const evalflow = exporter('otlphttp/evalflow');
    // otlphttp appends /v1/traces and /v1/logs to the endpoint: the API's routes.
    expect(evalflow.endpoint).toBe(env('EVALFLOW_URL'));
    expect(evalflow.headers?.Authorization).toMatch(/^Bearer \$\{env:EVALFLOW_AGENT_KEY\}$/);
    expect(evalflow.compression).toBe('gzip');
    const langfuse = exporter('otlphttp/langfuse');
    expect(langfuse.endpoint).toBe(`${env('LANGFUSE_BASE_URL')}/api/public/otel`);
    expect(langfuse.headers?.Authorization).toBe(`Basic ${env('LANGFUSE_AUTH')}`);
    expect(langfuse.headers?.['x-langfuse-ingestion-version']).toBe('4');
  });

  it('retries from a queue of its own per backend', () => {
    for (const name of ['otlphttp/evalflow', 'otlphttp/langfuse']) {
      expect(exporter(name).retry_on_failure?.enabled, name).toBe(true);
      expect(exporter(name).sending_queue?.enabled, name).toBe(true);
    }
  });
});
