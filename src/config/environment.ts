import { join } from 'node:path';
import { InvalidConfigError } from './errors.js';
import {
  loadTemporalSettings,
  type TemporalConnectionOptions,
  type TemporalSecurity,
} from './temporal-connection.js';

/**
 * Every environment variable evalflow reads, with what it does. Tests check the README's
 * configuration table and the docker-compose worker's environment against this list.
 */
export const ENVIRONMENT = {
  TEMPORAL_ADDRESS:
    "a Temporal frontend (`host:port`), else the profile's; with neither, `npm start` runs the CLI dev server and `evalflow worker`/`api` use `127.0.0.1:7233`",
  TEMPORAL_NAMESPACE: 'the Temporal namespace (default `default`)',
  TEMPORAL_API_KEY:
    'an API key for Temporal (Temporal Cloud, say); sent as a bearer token, and turns TLS on',
  TEMPORAL_TLS: '`true` for TLS with no other TLS setting (the system CAs), `false` to turn it off',
  TEMPORAL_TLS_CLIENT_CERT_PATH: 'the client certificate file (PEM) for mTLS, with its key',
  TEMPORAL_TLS_CLIENT_CERT_DATA: 'the client certificate itself (PEM), instead of a path',
  TEMPORAL_TLS_CLIENT_KEY_PATH: "the client certificate's private key file (PEM)",
  TEMPORAL_TLS_CLIENT_KEY_DATA:
    "the client certificate's private key itself (PEM), instead of a path",
  TEMPORAL_TLS_SERVER_CA_CERT_PATH:
    "the CA file (PEM) to check the server's certificate with (default: the system CAs)",
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'that CA itself (PEM), instead of a path',
  TEMPORAL_TLS_SERVER_NAME:
    "the name the server's certificate must carry, when it is not the address's host",
  TEMPORAL_CONFIG_FILE:
    'a `temporal.toml` of connection profiles (default `~/.config/temporalio/temporal.toml` when present); the variables above override its values, and `TEMPORAL_GRPC_META_<NAME>` variables add gRPC headers',
  TEMPORAL_PROFILE: 'the profile to use in that file (default `default`)',
  EVALFLOW_TASK_QUEUE: 'the task queue workers poll (default `evalflow`)',
  EVALFLOW_HOME:
    "the engine's state folder, as every command's `--home` names it: the dev server's files, the engine record, and the default SQLite and JSONL files below (default `.evalflow`)",
  TEMPORAL_CLI_PATH: 'the `temporal` CLI executable (else PATH, else `.evalflow/bin`, else PyPI)',
  TEMPORAL_TEST_SERVER_PATH: 'the `temporal-test-server` executable, for time-skipping tests',
  EVALFLOW_CONFIG:
    'the app definition file (default `./evalflow.config.ts` when present, else the built-ins)',
  DATABASE_URL: 'Postgres for the event log and ledger; without it, SQLite',
  EVALFLOW_SQLITE_PATH:
    'the SQLite file without `DATABASE_URL` (default `evalflow.db` in the state folder)',
  LANGFUSE_BASE_URL: 'Langfuse to mirror scores into, with the two keys below',
  LANGFUSE_PUBLIC_KEY: "the Langfuse project's public key (`pk-lf-...`)",
  LANGFUSE_SECRET_KEY: "the Langfuse project's secret key (`sk-lf-...`)",
  EVALFLOW_SCORES_FILE:
    'without Langfuse, the JSONL file scores go to (default `scores.jsonl` in the state folder)',
  EVALFLOW_SCORE_CONFIGS_FILE:
    'without Langfuse, the JSONL file score configs go to (default `score-configs.jsonl` in the state folder)',
  EVALFLOW_TENANT_ID:
    "recorded on every score's metadata, to tell tenants apart in one Langfuse project (default `default`)",
  EVALFLOW_API_HOST: 'the address the HTTP API listens on (default `127.0.0.1`)',
  EVALFLOW_API_PORT: 'the HTTP API port (default `8787`)',
  EVALFLOW_API_BODY_LIMIT_BYTES: 'the largest request body the API reads (default 2 MiB)',
  EVALFLOW_API_RATE_LIMIT: 'requests per minute per API key (default `1200`)',
  EVALFLOW_OTLP_BODY_LIMIT_BYTES:
    'the largest OTLP request `POST /v1/traces` reads, once decompressed (default 64 MiB)',
  EVALFLOW_OTLP_SETTLE_MS:
    "how long after a run's agent span arrives its run is recorded and judged, so spans of the next batch count (default `2000`)",
  EVALFLOW_OTLP_IDLE_MS:
    "how long after a trace's last span a run whose agent span never came ends `stopped` (default `300000`, five minutes)",
  EVALFLOW_OTLP_CONVERSATION_ATTRIBUTE:
    'a span attribute that names the conversation when the GenAI, OpenInference and Langfuse ones are absent (e.g. `ai.telemetry.metadata.conversationId`)',
  EVALFLOW_LOG_FORMAT:
    'how the API logs requests and the engine what it does ([operations.md](docs/operations.md#reading-it-the-operations-log)): `text`, one readable line each, or `json`, one JSON object each (default: `text` on a terminal, `json` otherwise)',
  EVALFLOW_METRICS_HOST:
    'the address the Prometheus endpoint (`GET /metrics`) listens on (default `127.0.0.1`)',
  EVALFLOW_METRICS_PORT:
    "the Prometheus endpoint's port, never the API's (default `9464` for `evalflow start`; `evalflow worker` and `evalflow api` serve it only when this or `--metrics-port` is set)",
  EVALFLOW_JUDGE_BASE_URL: 'an OpenAI-compatible API root for the LLM judge, with the model below',
  EVALFLOW_JUDGE_MODEL: "the LLM judge's model",
  EVALFLOW_JUDGE_API_KEY: "the LLM judge's API key, when its endpoint needs one",
  OTEL_EXPORTER_OTLP_ENDPOINT:
    "an OTLP/HTTP collector or backend evalflow sends its own spans to (`/v1/traces` is added), never evalflow's own API; unset, evalflow traces nothing (docs/traces.md#evalflows-own-spans)",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:
    'the full URL for those spans instead (`http://collector:4318/v1/traces`, taken as it is)',
  OTEL_EXPORTER_OTLP_HEADERS:
    'headers sent with them, `name=value` pairs split by commas, values percent-decoded (`Authorization=Bearer%20…`)',
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'the same, for spans only; it wins over the one above',
  OTEL_EXPORTER_OTLP_PROTOCOL:
    'must be `http/protobuf`, the only protocol evalflow exports its spans in, when set',
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'the same, for spans only',
  OTEL_SERVICE_NAME: "evalflow's spans' `service.name` (default `evalflow`)",
  OTEL_SDK_DISABLED: '`true` to trace nothing even with an endpoint set',
} as const;

export type EnvironmentVariable = keyof typeof ENVIRONMENT;
/** The variables above, and envconfig's `TEMPORAL_GRPC_META_<NAME>` headers. */
export type Environment = Partial<Record<EnvironmentVariable, string>> & {
  [header: `TEMPORAL_GRPC_META_${string}`]: string | undefined;
};

/** The defaults, in one place. */
export const DEFAULTS = {
  /** For `evalflow worker` and `api`; `start` runs the dev server instead. */
  temporalAddress: '127.0.0.1:7233',
  namespace: 'default',
  taskQueue: 'evalflow',
  configFile: 'evalflow.config.ts',
  home: '.evalflow',
  tenantId: 'default',
  apiHost: '127.0.0.1',
  apiPort: 8787,
  apiBodyLimitBytes: 2 * 1024 * 1024,
  apiRateLimitPerMinute: 1200,
  metricsHost: '127.0.0.1',
  otlpBodyLimitBytes: 64 * 1024 * 1024,
  otlpSettleMs: 2_000,
  otlpIdleMs: 5 * 60_000,
  /** For `evalflow start`; the worker and the API alone serve metrics only when a port is set. */
  metricsPort: 9464,
  /** The `service.name` of evalflow's own spans. */
  serviceName: 'evalflow',
} as const;

/** How the OTLP receiver reads spans and when their runs end (docs/traces.md). */
export interface TraceSettings {
  /** The largest request, once decompressed. */
  bodyLimitBytes: number;
  /** How long after a run's agent span arrives its run is recorded. */
  settleMs: number;
  /** How long after a trace's last span a run whose agent span never came ends `stopped`. */
  idleMs: number;
  /** An attribute that names the conversation, read after the conventions' own; null for none. */
  conversationAttribute: string | null;
}

/**
 * Where evalflow sends its own spans (docs/traces.md#evalflows-own-spans), read from the standard
 * OpenTelemetry variables: OTLP/HTTP with protobuf bodies.
 */
export interface TracingSettings {
  /** The full traces URL (`…/v1/traces`). */
  endpoint: string;
  /** Headers sent with each export, percent-decoded. */
  headers: Record<string, string>;
  /** The spans' `service.name`. */
  serviceName: string;
}

/** Where the event log and ledger are: Postgres when a URL is set, else a SQLite file. */
export interface StoreLocation {
  databaseUrl?: string;
  sqlitePath: string;
}

export interface Config {
  /** The engine's state folder (EVALFLOW_HOME, or `--home`); relative to the terminal's folder. */
  home: string;
  /** From TEMPORAL_ADDRESS or the temporal.toml profile; null when neither names one. */
  temporalAddress: string | null;
  /** TLS, API key and gRPC headers for that address, from the same sources. */
  temporal: TemporalSecurity;
  namespace: string;
  taskQueue: string;
  /** An app definition file named by EVALFLOW_CONFIG; null to look for the default one. */
  configFile: string | null;
  store: StoreLocation;
  langfuse: { baseUrl: string; publicKey: string; secretKey: string } | null;
  scoresFile: string;
  scoreConfigsFile: string;
  tenantId: string;
  /** The LLM judge's endpoint, when one is set. */
  judge: { baseUrl: string; model: string; apiKey?: string } | null;
  api: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    rateLimitPerMinute: number;
    /** EVALFLOW_LOG_FORMAT; null to choose by whether stdout is a terminal. */
    logFormat: LogFormat | null;
  };
  /** The OTLP receiver's settings (docs/traces.md). */
  traces: TraceSettings;
  /**
   * Where the process serves `GET /metrics`: null for no endpoint (the port was not set; `evalflow
   * start` then takes `DEFAULTS.metricsPort`). Port 0 is any free port.
   */
  metrics: { host: string; port: number | null };
  /** Where evalflow's own spans go; null when no OTLP endpoint is set (or the SDK is disabled). */
  tracing: TracingSettings | null;
}

/** Reads every variable evalflow knows; a half-set group is an `InvalidConfigError`. */
export function loadConfig(env: Environment = process.env): Config {
  const langfuse = allOrNone(env, [
    'LANGFUSE_BASE_URL',
    'LANGFUSE_PUBLIC_KEY',
    'LANGFUSE_SECRET_KEY',
  ]);
  const judge = allOrNone(env, ['EVALFLOW_JUDGE_BASE_URL', 'EVALFLOW_JUDGE_MODEL']);
  // The whole environment: envconfig also reads HOME (the default temporal.toml) and the headers.
  const temporal = loadTemporalSettings(env);
  const home = env.EVALFLOW_HOME || DEFAULTS.home;
  return withSeparatePorts({
    home,
    temporalAddress: temporal.address,
    temporal: temporal.security,
    namespace: temporal.namespace ?? DEFAULTS.namespace,
    taskQueue: env.EVALFLOW_TASK_QUEUE || DEFAULTS.taskQueue,
    configFile: env.EVALFLOW_CONFIG || null,
    store: {
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
      sqlitePath: env.EVALFLOW_SQLITE_PATH || join(home, 'evalflow.db'),
    },
    langfuse: langfuse && {
      baseUrl: langfuse[0],
      publicKey: langfuse[1],
      secretKey: langfuse[2],
    },
    scoresFile: env.EVALFLOW_SCORES_FILE || join(home, 'scores.jsonl'),
    scoreConfigsFile: env.EVALFLOW_SCORE_CONFIGS_FILE || join(home, 'score-configs.jsonl'),
    tenantId: env.EVALFLOW_TENANT_ID || DEFAULTS.tenantId,
    api: {
      host: env.EVALFLOW_API_HOST || DEFAULTS.apiHost,
      port: whole(env, 'EVALFLOW_API_PORT', DEFAULTS.apiPort, 65_535),
      bodyLimitBytes: whole(env, 'EVALFLOW_API_BODY_LIMIT_BYTES', DEFAULTS.apiBodyLimitBytes),
      rateLimitPerMinute: whole(env, 'EVALFLOW_API_RATE_LIMIT', DEFAULTS.apiRateLimitPerMinute),
      logFormat: logFormat(env),
    },
    traces: {
      bodyLimitBytes: whole(env, 'EVALFLOW_OTLP_BODY_LIMIT_BYTES', DEFAULTS.otlpBodyLimitBytes),
      settleMs: whole(env, 'EVALFLOW_OTLP_SETTLE_MS', DEFAULTS.otlpSettleMs),
      idleMs: whole(env, 'EVALFLOW_OTLP_IDLE_MS', DEFAULTS.otlpIdleMs),
      conversationAttribute: env.EVALFLOW_OTLP_CONVERSATION_ATTRIBUTE || null,
    },
    metrics: {
      host: env.EVALFLOW_METRICS_HOST || DEFAULTS.metricsHost,
      port: env.EVALFLOW_METRICS_PORT ? whole(env, 'EVALFLOW_METRICS_PORT', 0, 65_535) : null,
    },
    judge: judge && {
      baseUrl: judge[0],
      model: judge[1],
      ...(env.EVALFLOW_JUDGE_API_KEY ? { apiKey: env.EVALFLOW_JUDGE_API_KEY } : {}),
    },
    tracing: tracing(env),
  });
}

/**
 * The settings as given, once the metrics endpoint is checked to be off the API's port (the API's
 * port never serves metrics: both listening on one host and port would fail at start anyway), and
 * evalflow's own spans to go elsewhere than its own OTLP receiver: there each evaluation's trace,
 * with its judge's `chat` span, would be a run to judge, and its judging another, without end.
 * @throws InvalidConfigError when either names the API's port.
 */
export function withSeparatePorts(config: Config): Config {
  if (config.metrics.port !== null && config.metrics.port === config.api.port) {
    throw new InvalidConfigError(
      `the metrics port (EVALFLOW_METRICS_PORT or --metrics-port) is the API's port ${config.api.port}; give it one of its own`,
    );
  }
  if (config.tracing !== null && isTheApi(new URL(config.tracing.endpoint), config.api)) {
    throw new InvalidConfigError(
      `evalflow's own spans would go to its own OTLP receiver (${config.tracing.endpoint}), where each evaluation would be judged in turn; point OTEL_EXPORTER_OTLP_ENDPOINT at a collector or backend, or unset it in evalflow's environment`,
    );
  }
  return config;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** Whether a URL names the API's own port on this host (or the API's host itself). */
function isTheApi(url: URL, api: { host: string; port: number }): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const host = url.hostname;
  return port === api.port && (LOOPBACK.has(host) || host === api.host);
}

/**
 * Where evalflow's own spans go, from the standard OpenTelemetry variables (the traces-only ones
 * first), or null when no endpoint is set or `OTEL_SDK_DISABLED` is `true`.
 * @throws InvalidConfigError for an endpoint that is no http(s) URL, a header that is no
 * `name=value` pair, or a protocol other than `http/protobuf`.
 */
function tracing(env: Environment): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!traces && !base) return null;
  const name = traces ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  // As the specification says: the signal's own variable is taken as it is; the base gets the
  // signal's path.
  const endpoint = traces || `${(base ?? '').replace(/\/+$/, '')}/v1/traces`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new InvalidConfigError(`${name} is an http(s) URL, not ${traces || base}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidConfigError(`${name} is an http(s) URL, not ${traces || base}`);
  }
  const protocolName = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName]?.trim();
  if (protocol && protocol !== 'http/protobuf') {
    throw new InvalidConfigError(
      `${protocolName} is ${protocol}, but evalflow exports its own spans as http/protobuf only; set it to http/protobuf or unset it`,
    );
  }
  return {
    endpoint: url.href,
    headers: {
      ...otlpHeaders(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...otlpHeaders(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || DEFAULTS.serviceName,
  };
}

/** OTLP exporter headers: `name=value` pairs split by commas, each part percent-decoded. */
function otlpHeaders(env: Environment, name: EnvironmentVariable): Record<string, string> {
  const text = env[name]?.trim();
  if (!text) return {};
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const key = decoded(pair.slice(0, at).trim());
    const value = decoded(pair.slice(at + 1).trim());
    if (at < 1 || key === null || key === '' || value === null) {
      throw new InvalidConfigError(
        `${name} is name=value pairs split by commas (values percent-encoded), not ${JSON.stringify(pair.trim())}`,
      );
    }
    headers[key] = value;
  }
  return headers;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Temporal at the configured address, else at `127.0.0.1:7233`, with its TLS and API key. */
export function temporalConnection(config: Config): TemporalConnectionOptions {
  return { address: config.temporalAddress ?? DEFAULTS.temporalAddress, ...config.temporal };
}

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

function logFormat(env: Environment): LogFormat | null {
  const text = env.EVALFLOW_LOG_FORMAT;
  if (!text) return null;
  if (!(LOG_FORMATS as readonly string[]).includes(text)) {
    throw new InvalidConfigError(`EVALFLOW_LOG_FORMAT is text or json, not ${text}`);
  }
  return text as LogFormat;
}

/** A whole number from 1 (to `max`), or the default when the variable is unset. */
function whole(
  env: Environment,
  name: EnvironmentVariable,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
) {
  const text = env[name];
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new InvalidConfigError(`${name} is a whole number from 1 to ${max}, not ${text}`);
  }
  return n;
}

/** The values of a group of variables that only work together, or null when none is set. */
function allOrNone<N extends EnvironmentVariable[]>(
  env: Environment,
  names: [...N],
): { [I in keyof N]: string } | null {
  const values = names.map((name) => env[name] || '');
  const set = values.filter(Boolean).length;
  if (set === 0) return null;
  if (set < names.length) {
    throw new InvalidConfigError(`set all of ${names.join(', ')}, or none`);
  }
  return values as { [I in keyof N]: string };
}
