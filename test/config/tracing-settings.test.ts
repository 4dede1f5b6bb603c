import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig, withSeparatePorts } from '../../src/config/index.js';

// Where evalflow's own spans go: read from the standard OpenTelemetry variables, nowhere when no
// endpoint is set, and a bad value a clear error at start.

describe('the tracing settings', () => {
  it('trace nothing without an endpoint, or with the SDK disabled', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' }).tracing).toBe(
      null,
    );
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'TRUE',
      }).tracing,
    ).toBeNull();
  });

  it('add /v1/traces to the base endpoint, and take the traces endpoint as it is', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'evalflow',
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://backend.example/otlp/spans',
        OTEL_SDK_DISABLED: 'false',
      }).tracing?.endpoint,
    ).toBe('https://backend.example/otlp/spans');
  });

  it('read the service name and the headers, percent-decoded, the traces-only ones winning', () => {
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SERVICE_NAME: 'evalflow-eu',
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-tenant = acme',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=globex',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      }).tracing,
    ).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      headers: { Authorization: 'Bearer abc', 'x-tenant': 'globex' },
      serviceName: 'evalflow-eu',
    });
  });

  it('refuse an endpoint that is no http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      new InvalidConfigError('OTEL_EXPORTER_OTLP_ENDPOINT is an http(s) URL, not collector:4318'),
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http//nowhere' })).toThrow(
      new InvalidConfigError(
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is an http(s) URL, not http//nowhere',
      ),
    );
  });

  it('refuse a header that is no name=value pair, and a protocol other than http/protobuf', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'a=b,novalue' })).toThrow(
      new InvalidConfigError(
        'OTEL_EXPORTER_OTLP_HEADERS is name=value pairs split by commas (values percent-encoded), not "novalue"',
      ),
    );
    expect(() =>
      loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=%E0%A4%A' }),
    ).toThrow(InvalidConfigError);
    expect(() => loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      new InvalidConfigError(
        'OTEL_EXPORTER_OTLP_PROTOCOL is grpc, but evalflow exports its own spans as http/protobuf only; set it to http/protobuf or unset it',
      ),
    );
    expect(() =>
      loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }),
    ).toThrow('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is http/json');
  });

  it("refuse evalflow's own OTLP receiver, from the environment or from a flag", () => {
    for (const endpoint of ['http://127.0.0.1:8787', 'http://localhost:8787/']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        /evalflow's own spans would go to its own OTLP receiver/,
      );
    }
    const config = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(() => withSeparatePorts({ ...config, api: { ...config.api, port: 9000 } })).toThrow(
      InvalidConfigError,
    );
    // Another host's port 8787 is someone else's.
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:8787' }).tracing?.endpoint,
    ).toBe('http://collector:8787/v1/traces');
  });
});
