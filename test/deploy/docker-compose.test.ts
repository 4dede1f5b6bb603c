import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVIRONMENT } from '../../src/config/index.js';

// Docker cannot run on these machines, so the stack is checked as data: it boots in order (every
// dependency waited for by a condition its target can meet), restarts what falls over, pins its
// images, publishes on loopback only, and configures evalflow only through variables it reads.

interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: unknown; disable?: boolean };
  restart?: string;
  container_name?: string;
}

const text = readFileSync('docker-compose.yml', 'utf8');
const services = (parse(text, { merge: true }) as { services: Record<string, Service> }).services;
const named = (name: string): Service => {
  const service = services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return service;
};

/** Every service that holds state, plus Temporal, whose frontend the rest waits for. */
const STATEFUL = [
  'temporal-postgres',
  'temporal',
  'evalflow-postgres',
  'langfuse-postgres',
  'clickhouse',
  'redis',
  'seaweedfs',
  'prometheus',
  'grafana',
];

const dependencies = (service: Service) =>
  Object.entries(Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}));

/** The one-shot setup services: what others wait on to complete rather than to be healthy. */
const oneShots = new Set(
  Object.values(services).flatMap((service) =>
    dependencies(service)
      .filter(([, { condition }]) => condition === 'service_completed_successfully')
      .map(([target]) => target),
  ),
);

const hasHealthcheck = (service: Service) =>
  service.healthcheck?.test !== undefined && service.healthcheck.disable !== true;

describe('docker-compose.yml', () => {
  it('has the Temporal, Langfuse and evalflow parts of the local stack', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'temporal-postgres',
        'temporal-schema',
        'temporal',
        'temporal-namespace',
        'temporal-ui',
        'evalflow-postgres',
        'evalflow-api',
        'evalflow-worker',
        'langfuse-web',
        'langfuse-worker',
        'langfuse-postgres',
        'clickhouse',
        'redis',
        'seaweedfs',
        'prometheus',
        'grafana',
      ].sort(),
    );
    expect([...oneShots].sort()).toEqual(['temporal-namespace', 'temporal-schema']);
  });

  it('pins every image by a version tag, never latest', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build !== undefined) continue;
      const tag = service.image?.split(':')[1];
      expect(tag, `service ${name}: ${service.image}`).toMatch(/^v?\d/);
    }
  });

  it('gives every stateful service a healthcheck, and every volume belongs to one', () => {
    for (const name of STATEFUL) expect(hasHealthcheck(named(name)), name).toBe(true);
    const withVolumes = Object.keys(services).filter((name) => named(name).volumes?.length);
    for (const name of withVolumes) expect(STATEFUL, `service ${name}`).toContain(name);
  });

  it('waits for every dependency by a condition its target can meet', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(Array.isArray(service.depends_on), `service ${name}: a bare list`).toBe(false);
      for (const [target, { condition }] of dependencies(service)) {
        const where = `${name} -> ${target}`;
        if (oneShots.has(target)) expect(condition, where).toBe('service_completed_successfully');
        else {
          expect(condition, where).toBe('service_healthy');
          expect(hasHealthcheck(named(target)), `${where} has no healthcheck`).toBe(true);
        }
      }
    }
  });

  it('restarts every long-running service unless stopped, and no one-shot forever', () => {
    for (const [name, service] of Object.entries(services)) {
      if (oneShots.has(name)) expect(service.restart, name).not.toBe('unless-stopped');
      else expect(service.restart, name).toBe('unless-stopped');
    }
  });

  it('publishes ports on loopback only', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const port of service.ports ?? [])
        expect(port, `service ${name}`).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
  });

  it('runs the API and the worker from the Dockerfile, the worker free to scale', () => {
    const api = named('evalflow-api');
    const worker = named('evalflow-worker');
    expect([api.build, api.command]).toEqual(['.', ['api']]);
    expect([worker.build, worker.command]).toEqual(['.', ['worker']]);
    expect(api.ports).toEqual(['127.0.0.1:8787:8787']);
    // `--scale` needs generated container names and no host port to collide on.
    expect(worker.ports).toBeUndefined();
    for (const [name, service] of Object.entries(services))
      expect(service.container_name, name).toBeUndefined();
  });

  it('sets on evalflow only environment variables the code reads', () => {
    for (const name of ['evalflow-api', 'evalflow-worker']) {
      const set = Object.keys(named(name).environment ?? {});
      expect(set.length, name).toBeGreaterThan(0);
      for (const variable of set) expect(Object.keys(ENVIRONMENT), variable).toContain(variable);
    }
  });

  it('points evalflow at the Temporal, Postgres and Langfuse of the stack', () => {
    const langfuse = named('langfuse-web').environment ?? {};
    for (const name of ['evalflow-api', 'evalflow-worker']) {
      const env = named(name).environment ?? {};
      expect(env.TEMPORAL_ADDRESS, name).toBe('temporal:7233');
      expect(env.DATABASE_URL, name).toMatch(/@evalflow-postgres:5432\//);
      expect(env.LANGFUSE_BASE_URL, name).toBe('http://langfuse-web:3000');
      expect(env.LANGFUSE_PUBLIC_KEY, name).toBe(langfuse.LANGFUSE_INIT_PROJECT_PUBLIC_KEY);
      expect(env.LANGFUSE_SECRET_KEY, name).toBe(langfuse.LANGFUSE_INIT_PROJECT_SECRET_KEY);
    }
  });

  it('scrapes the API and every worker replica on the metrics port they serve, inside the stack', () => {
    const scrape = parse(readFileSync('deploy/prometheus/prometheus.yml', 'utf8')) as {
      rule_files: string[];
      scrape_configs: {
        job_name: string;
        static_configs?: { targets: string[] }[];
        dns_sd_configs?: { names: string[]; type: string; port: number }[];
      }[];
    };
    const jobs = Object.fromEntries(scrape.scrape_configs.map((job) => [job.job_name, job]));
    for (const name of ['evalflow-api', 'evalflow-worker']) {
      const env = named(name).environment ?? {};
      expect(env.EVALFLOW_METRICS_HOST, name).toBe('0.0.0.0');
      const port = Number(env.EVALFLOW_METRICS_PORT);
      const job = jobs[name];
      const targets = [
        ...(job?.static_configs ?? []).flatMap((config) => config.targets),
        ...(job?.dns_sd_configs ?? []).flatMap((config) =>
          config.names.map((host) => `${host}:${config.port}`),
        ),
      ];
      expect(targets, name).toEqual([`${name}:${port}`]);
      // Metrics stay inside the stack: no host port publishes them, and never the API's port.
      expect((named(name).ports ?? []).join(), name).not.toContain(`:${port}`);
      expect(String(port)).not.toBe(env.EVALFLOW_API_PORT ?? '8787');
    }
    // Replicas come and go with --scale: found by the service's name, each one an instance.
    expect(jobs['evalflow-worker']?.dns_sd_configs?.[0]?.type).toBe('A');
    const prometheus = named('prometheus');
    const mounted = (service: Service) =>
      Object.fromEntries(
        (service.volumes ?? [])
          .filter((volume) => volume.startsWith('./'))
          .map((volume) => [volume.split(':')[1], volume.split(':')[0]]),
      );
    const files = mounted(prometheus);
    expect(files['/etc/prometheus/prometheus.yml']).toBe('./deploy/prometheus/prometheus.yml');
    for (const rules of scrape.rule_files) expect(existsSync(files[rules] ?? '')).toBe(true);
  });

  it('provisions Grafana with the stack’s Prometheus and the evalflow dashboard', () => {
    const grafana = named('grafana');
    const mounts = Object.fromEntries(
      (grafana.volumes ?? [])
        .filter((volume) => volume.startsWith('./'))
        .map((volume) => [volume.split(':')[1], volume.split(':')[0]]),
    );
    const provisioning = mounts['/etc/grafana/provisioning'] ?? '';
    const datasources = parse(
      readFileSync(`${provisioning}/datasources/prometheus.yml`, 'utf8'),
    ) as { datasources: { uid: string; url: string }[] };
    const [prometheus] = datasources.datasources;
    expect(new URL(prometheus?.url ?? '').host).toBe('prometheus:9090');
    const providers = parse(readFileSync(`${provisioning}/dashboards/evalflow.yml`, 'utf8')) as {
      providers: { options: { path: string } }[];
    };
    const inside = providers.providers[0]?.options.path ?? '';
    const dashboard = JSON.parse(readFileSync(`${mounts[inside] ?? ''}/evalflow.json`, 'utf8')) as {
      panels: { datasource?: { uid: string } }[];
    };
    const sources = new Set(dashboard.panels.flatMap((panel) => panel.datasource?.uid ?? []));
    expect([...sources]).toEqual([prometheus?.uid]);
    expect(grafana.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe(
      `${inside}/evalflow.json`,
    );
  });

  it("gives Langfuse's media uploads an endpoint a browser on this machine reaches", () => {
    const web = named('langfuse-web').environment ?? {};
    const events = new URL(web.LANGFUSE_S3_EVENT_UPLOAD_ENDPOINT ?? '');
    const media = new URL(web.LANGFUSE_S3_MEDIA_UPLOAD_ENDPOINT ?? '');
    // Events go to the store by its name inside the stack; media to the port it publishes.
    const store = named(events.hostname);
    expect(store.ports).toContain(`127.0.0.1:${media.port}:${events.port}`);
    expect(['localhost', '127.0.0.1']).toContain(media.hostname);
  });

  it('calls itself a local stack, never production, and points clusters to Helm charts', () => {
    expect(text).not.toMatch(/production/i);
    expect(text).toMatch(/local/);
    expect(text).toMatch(/helm/i);
  });
});

describe('docs/deploy.md', () => {
  it('says what every service of the stack is', () => {
    const guide = readFileSync('docs/deploy.md', 'utf8');
    for (const name of Object.keys(services)) expect(guide, name).toContain(`\`${name}\``);
  });
});

describe('the README', () => {
  it('documents exactly the environment variables the code reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(table.sort()).toEqual(Object.keys(ENVIRONMENT).sort());
  });
});
