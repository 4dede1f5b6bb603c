import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVIRONMENT } from '../../src/config/index.js';

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

  it('points the worker at the Temporal, Postgres and Langfuse services of the stack', () => {
    const worker = services['evalflow-worker']?.environment ?? {};
    const langfuse = services['langfuse-web']?.environment ?? {};
    expect(worker.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(worker.DATABASE_URL).toMatch(/@evalflow-postgres:5432\//);
    expect(worker.LANGFUSE_BASE_URL).toBe('http://langfuse-web:3000');
    expect(worker.LANGFUSE_PUBLIC_KEY).toBe(langfuse.LANGFUSE_INIT_PROJECT_PUBLIC_KEY);
    expect(worker.LANGFUSE_SECRET_KEY).toBe(langfuse.LANGFUSE_INIT_PROJECT_SECRET_KEY);
  });

  it('publishes ports on loopback only', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const port of service.ports ?? [])
        expect(port, `service ${name}`).toMatch(/^127\.0\.0\.1:/);
    }
  });
});

describe('the README', () => {
  it('documents exactly the environment variables the code reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(table.sort()).toEqual(Object.keys(ENVIRONMENT).sort());
  });
});
