import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TLSConfig } from '@temporalio/client';
import type { ClientConfigProfile, ClientConfigTLS } from '@temporalio/envconfig';
import { InvalidConfigError } from './errors.js';

// envconfig (and the Temporal SDK's common module under it) is loaded when the settings are first
// read, not when this module is: `evalflow`, the root entry, exports `loadConfig` and loads no
// Temporal package on import.
type EnvConfig = typeof import('@temporalio/envconfig');
let envConfig: EnvConfig | undefined;
const envconfig = (): EnvConfig => {
  envConfig ??= createRequire(import.meta.url)('@temporalio/envconfig') as EnvConfig;
  return envConfig;
};

// Temporal's standard client configuration (TEMPORAL_ADDRESS, TEMPORAL_API_KEY, TEMPORAL_TLS_*,
// profiles in temporal.toml), read by the SDK's own `@temporalio/envconfig` so evalflow means by
// each setting what every Temporal tool means. Around it, what evalflow adds: empty values count
// as unset, a named file must exist, a certificate needs its key, and each failure is one line
// that names the setting.

/** What `NativeConnection.connect` (the worker) and `Connection.connect` (clients) take. */
export interface TemporalConnectionOptions {
  address: string;
  /** `true`: TLS with the system's trusted roots; an object: a CA, a server name, a client cert. */
  tls?: TLSConfig | boolean;
  apiKey?: string;
  /** gRPC headers sent with every call. */
  metadata?: Record<string, string>;
}

/** The connection less its address: the address has defaults that depend on the command. */
export type TemporalSecurity = Omit<TemporalConnectionOptions, 'address'>;

export interface TemporalSettings {
  /** From TEMPORAL_ADDRESS or the profile; null when neither names one. */
  address: string | null;
  /** From TEMPORAL_NAMESPACE or the profile; undefined when neither names one. */
  namespace: string | undefined;
  security: TemporalSecurity;
}

const GRPC_META_PREFIX = 'TEMPORAL_GRPC_META_';

/** The TLS settings that are files: envconfig's name, temporal.toml's, and a person's. */
const tlsFiles = [
  { field: 'clientCert', toml: 'client_cert', what: 'TLS client certificate' },
  { field: 'clientKey', toml: 'client_key', what: 'TLS client key' },
  { field: 'serverCACert', toml: 'server_ca_cert', what: 'TLS server CA certificate' },
] as const;

/** Reads the Temporal settings from `env` and the temporal.toml it points to. */
export function loadTemporalSettings(env: Record<string, string | undefined>): TemporalSettings {
  // Unset and empty are the same everywhere in evalflow; an empty gRPC header still removes it.
  const vars = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && (entry[1] !== '' || entry[0].startsWith(GRPC_META_PREFIX)),
    ),
  );
  const file = vars.TEMPORAL_CONFIG_FILE;
  // envconfig treats a missing file as no file; one named on purpose is a mistake.
  if (file !== undefined && !existsSync(file)) {
    throw new InvalidConfigError(`TEMPORAL_CONFIG_FILE ${file} does not exist`);
  }
  const profile = readProfile(vars);
  checkClientPair(profile.tls);
  // envconfig's own mapping decides TLS (an API key alone turns it on) and reads the files.
  const { tls } = readFiles(profile).connectionOptions;
  const headers = profile.grpcMeta ?? {};
  return {
    address: profile.address ?? null,
    namespace: profile.namespace,
    security: {
      ...(tls != null ? { tls } : {}),
      ...(profile.apiKey !== undefined ? { apiKey: profile.apiKey } : {}),
      ...(Object.keys(headers).length > 0 ? { metadata: headers } : {}),
    },
  };
}

function readProfile(vars: Record<string, string>): ClientConfigProfile {
  const source = vars.TEMPORAL_CONFIG_FILE ?? 'the default temporal.toml';
  try {
    return envconfig().loadClientConfigProfile({ overrideEnvVars: vars });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const toml = /^Invalid TOML document: (.*)/.exec(message);
    if (toml) {
      const { line } = error as { line?: number };
      throw new InvalidConfigError(`${source} is not valid TOML: ${toml[1]} (line ${line})`);
    }
    if (/^Profile '.*' not found/.test(message)) {
      throw new InvalidConfigError(
        `TEMPORAL_PROFILE ${vars.TEMPORAL_PROFILE} is not a profile in ${source} ` +
          `(its profiles: ${profileNames(vars)})`,
      );
    }
    const both = /^Cannot specify both (\w+)_path and/.exec(message);
    const file = tlsFiles.find(({ toml }) => toml === both?.[1]);
    if (file) {
      const env = `TEMPORAL_TLS_${file.toml.toUpperCase()}`;
      throw new InvalidConfigError(
        `the Temporal ${file.what} is set as a path and as data: keep one ` +
          `(${env}_PATH or ${env}_DATA; ${file.toml}_path or ${file.toml}_data in ${source})`,
      );
    }
    throw new InvalidConfigError(`the Temporal client configuration: ${message}`);
  }
}

/** For the message only: a file that fails to map in another profile still gets its line. */
function profileNames(vars: Record<string, string>): string {
  try {
    return (
      Object.keys(envconfig().loadClientConfig({ overrideEnvVars: vars }).profiles).join(', ') ||
      'none'
    );
  } catch {
    return 'unreadable';
  }
}

/** Without this, a certificate without its key would be dropped and the handshake fail later. */
function checkClientPair(tls: ClientConfigTLS | undefined): void {
  if (!tls || tls.disabled || Boolean(tls.clientCert) === Boolean(tls.clientKey)) return;
  const [has, lacks] = tls.clientCert ? ['certificate', 'key'] : ['key', 'certificate'];
  throw new InvalidConfigError(
    `a Temporal TLS client ${has} needs its ${lacks}: set TEMPORAL_TLS_CLIENT_` +
      `${lacks === 'key' ? 'KEY' : 'CERT'}_PATH or _DATA`,
  );
}

/** envconfig reads the certificate and key files here, so a missing one fails at startup. */
function readFiles(profile: ClientConfigProfile): ReturnType<EnvConfig['toClientOptions']> {
  try {
    return envconfig().toClientOptions(profile);
  } catch (error) {
    const { path, code } = error as NodeJS.ErrnoException;
    const file = tlsFiles.find(({ field }) => {
      const source = profile.tls?.[field];
      return source !== undefined && 'path' in source && source.path === path;
    });
    if (path === undefined || file === undefined) throw error;
    const problem = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`;
    throw new InvalidConfigError(`the Temporal ${file.what} ${path} ${problem}`);
  }
}
