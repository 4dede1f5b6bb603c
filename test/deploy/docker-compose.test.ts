import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVIRONMENT } from '../../src/cli/config.js';

// Docker cannot run on these machines, so the stack is checked as data: it must be complete, and
// the worker must be configured only through variables the code reads.

interface Service {
  image?: string;
  build?: string | { context: string };
  environment?: Record<string, string>;
  ports?: string[];
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;

describe('docker-compose.yml', () => {
  it('gives every service an image or a build', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image ?? service.build, `service ${name}`).toBeTruthy();
    }
  });

  it('has the Temporal, Langfuse and evalflow parts of the production stack', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'clickhouse',
        'evalflow-postgres',
        'evalflow-worker',
        'langfuse-postgres',
        'langfuse-web',
        'langfuse-worker',
        'minio',
        'redis',
        'temporal',
        'temporal-postgres',
        'temporal-ui',
      ].sort(),
    );
  });

  it('builds the evalflow worker from the Dockerfile in the repository', () => {
    expect(services['evalflow-worker']?.build).toBe('.');
    expect(existsSync('Dockerfile')).toBe(true);
  });

  it('sets on the evalflow worker only environment variables the code reads', () => {
    const set = Object.keys(services['evalflow-worker']?.environment ?? {});
    expect(set.length).toBeGreaterThan(0);
    for (const name of set) expect(Object.keys(ENVIRONMENT), name).toContain(name);
  });

  it('points the worker at the Temporal service', () => {
    expect(services['evalflow-worker']?.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('publishes ports on loopback only', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const port of service.ports ?? [])
        expect(port, `service ${name}`).toMatch(/^127\.0\.0\.1:/);
    }
  });
});
