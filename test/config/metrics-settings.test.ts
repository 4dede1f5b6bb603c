import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig, withSeparatePorts } from '../../src/config/index.js';

// Where the metrics endpoint listens: loopback unless told, no port unless told (evalflow start
// takes 9464 then), never the API's port, and a bad value a clear error.

describe('the metrics settings', () => {
  it('serve no endpoint by default, on loopback when a port is set', () => {
    expect(loadConfig({}).metrics).toEqual({ host: '127.0.0.1', port: null });
    expect(
      loadConfig({ EVALFLOW_METRICS_PORT: '9500', EVALFLOW_METRICS_HOST: '0.0.0.0' }).metrics,
    ).toEqual({ host: '0.0.0.0', port: 9500 });
  });

  it('refuse a port that is not a whole number from 1 to 65535, naming the variable', () => {
    for (const bad of ['0', '65536', 'nine', '94.64', '-1']) {
      expect(() => loadConfig({ EVALFLOW_METRICS_PORT: bad })).toThrow(
        new InvalidConfigError(
          `EVALFLOW_METRICS_PORT is a whole number from 1 to 65535, not ${bad}`,
        ),
      );
    }
  });

  it("refuse the API's own port, from the environment or from a flag", () => {
    const message =
      "the metrics port (EVALFLOW_METRICS_PORT or --metrics-port) is the API's port 8787; give it one of its own";
    expect(() => loadConfig({ EVALFLOW_METRICS_PORT: '8787' })).toThrow(
      new InvalidConfigError(message),
    );
    const config = loadConfig({ EVALFLOW_API_PORT: '9000' });
    expect(() =>
      withSeparatePorts({ ...config, metrics: { ...config.metrics, port: 9000 } }),
    ).toThrow("is the API's port 9000");
    expect(
      withSeparatePorts({ ...config, metrics: { ...config.metrics, port: 9001 } }).metrics.port,
    ).toBe(9001);
  });
});
