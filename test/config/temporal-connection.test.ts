import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Environment,
  InvalidConfigError,
  loadConfig,
  temporalConnection,
} from '../../src/config/index.js';

// How Temporal's standard variables and temporal.toml profiles become the options evalflow's
// worker, API and CLI connect with. The environments here name no HOME, so no file on this
// machine takes part unless a test points at one.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-temporal-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const bytes = (text: string) => new TextEncoder().encode(text);

const ca = write('ca.pem', '-----BEGIN CERTIFICATE-----\nthe CA\n-----END CERTIFICATE-----\n');
const cert = write(
  'client.pem',
  '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n',
);
const key = write('client.key', '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n');

const profiles = write(
  'temporal.toml',
  `[profile.default]
address = "temporal.internal:7233"
namespace = "evals"

[profile.cloud]
address = "evals.a1b2c.tmprl.cloud:7233"
namespace = "evals.a1b2c"
api_key = "from-the-file"

[profile.mtls]
address = "10.0.0.5:7233"
namespace = "secure"
[profile.mtls.tls]
client_cert_path = "${cert}"
client_key_path = "${key}"
server_ca_cert_path = "${ca}"
server_name = "temporal.internal"
[profile.mtls.grpc_meta]
x-tenant = "acme"
`,
);

/** The options the worker and the API would connect with, and the namespace. */
const connectionFrom = (env: Environment) => {
  const config = loadConfig(env);
  return { connection: temporalConnection(config), namespace: config.namespace };
};

/** The error `loadConfig` throws for `env`, which must be one `InvalidConfigError` line. */
const refusal = (env: Environment): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigError);
    const { message } = error as Error;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('loadConfig accepted the environment');
};

describe('Temporal from environment variables alone', () => {
  it('names no address without TEMPORAL_ADDRESS: start runs the dev server, worker and api use 127.0.0.1:7233', () => {
    const config = loadConfig({});
    expect(config.temporalAddress).toBeNull();
    expect(config.temporal).toEqual({});
    expect(config.namespace).toBe('default');
    expect(temporalConnection(config)).toEqual({ address: '127.0.0.1:7233' });
  });

  it('takes the address and namespace, plain, and treats empty values as unset', () => {
    expect(
      connectionFrom({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'evals' }),
    ).toEqual({ connection: { address: 'temporal:7233' }, namespace: 'evals' });
    expect(connectionFrom({ TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '' })).toEqual({
      connection: { address: '127.0.0.1:7233' },
      namespace: 'default',
    });
  });

  it('sends an API key with TLS on, unless TEMPORAL_TLS turns TLS off', () => {
    expect(
      connectionFrom({ TEMPORAL_ADDRESS: 'cloud:7233', TEMPORAL_API_KEY: 'secret' }).connection,
    ).toEqual({ address: 'cloud:7233', apiKey: 'secret', tls: true });
    expect(
      connectionFrom({
        TEMPORAL_ADDRESS: 'proxy:7233',
        TEMPORAL_API_KEY: 'secret',
        TEMPORAL_TLS: 'false',
      }).connection,
    ).toEqual({ address: 'proxy:7233', apiKey: 'secret', tls: false });
    expect(connectionFrom({ TEMPORAL_TLS: 'true' }).connection.tls).toEqual({});
  });

  it('reads the client certificate, its key and the server CA from files, with the server name', () => {
    const { connection } = connectionFrom({
      TEMPORAL_ADDRESS: '10.0.0.5:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: cert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: key,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(connection).toEqual({
      address: '10.0.0.5:7233',
      tls: {
        serverNameOverride: 'temporal.internal',
        serverRootCACertificate: bytes(
          '-----BEGIN CERTIFICATE-----\nthe CA\n-----END CERTIFICATE-----\n',
        ),
        clientCertPair: {
          crt: bytes('-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n'),
          key: bytes('-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n'),
        },
      },
    });
  });

  it('takes the certificate, key and CA as data instead of paths', () => {
    const { connection } = connectionFrom({
      TEMPORAL_ADDRESS: '10.0.0.5:7233',
      TEMPORAL_TLS_CLIENT_CERT_DATA: 'cert text',
      TEMPORAL_TLS_CLIENT_KEY_DATA: 'key text',
      TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'ca text',
    });
    expect(connection.tls).toEqual({
      serverRootCACertificate: bytes('ca text'),
      clientCertPair: { crt: bytes('cert text'), key: bytes('key text') },
    });
  });

  it('sends TEMPORAL_GRPC_META_ variables as gRPC headers', () => {
    expect(
      connectionFrom({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_GRPC_META_X_TENANT: 'acme' })
        .connection,
    ).toEqual({ address: 'temporal:7233', metadata: { 'x-tenant': 'acme' } });
  });
});

describe('Temporal from a temporal.toml profile', () => {
  it('uses the default profile of TEMPORAL_CONFIG_FILE', () => {
    const config = loadConfig({ TEMPORAL_CONFIG_FILE: profiles });
    expect(config.temporalAddress).toBe('temporal.internal:7233');
    expect(connectionFrom({ TEMPORAL_CONFIG_FILE: profiles })).toEqual({
      connection: { address: 'temporal.internal:7233' },
      namespace: 'evals',
    });
  });

  it('uses the profile TEMPORAL_PROFILE names: its API key, or its TLS files and headers', () => {
    expect(connectionFrom({ TEMPORAL_CONFIG_FILE: profiles, TEMPORAL_PROFILE: 'cloud' })).toEqual({
      connection: { address: 'evals.a1b2c.tmprl.cloud:7233', apiKey: 'from-the-file', tls: true },
      namespace: 'evals.a1b2c',
    });
    const mtls = connectionFrom({ TEMPORAL_CONFIG_FILE: profiles, TEMPORAL_PROFILE: 'mtls' });
    expect(mtls.namespace).toBe('secure');
    expect(mtls.connection).toMatchObject({
      address: '10.0.0.5:7233',
      metadata: { 'x-tenant': 'acme' },
      tls: {
        serverNameOverride: 'temporal.internal',
        clientCertPair: {
          key: bytes('-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n'),
        },
      },
    });
  });

  it('lets the variables override the profile', () => {
    expect(
      connectionFrom({
        TEMPORAL_CONFIG_FILE: profiles,
        TEMPORAL_PROFILE: 'cloud',
        TEMPORAL_NAMESPACE: 'other.a1b2c',
        TEMPORAL_API_KEY: 'from-the-environment',
      }),
    ).toEqual({
      connection: {
        address: 'evals.a1b2c.tmprl.cloud:7233',
        apiKey: 'from-the-environment',
        tls: true,
      },
      namespace: 'other.a1b2c',
    });
  });

  it("reads the user's default temporal.toml when no file is named", () => {
    const home = join(dir, 'xdg');
    mkdirSync(join(home, 'temporalio'), { recursive: true });
    writeFileSync(
      join(home, 'temporalio', 'temporal.toml'),
      '[profile.default]\naddress = "from-home:7233"\n',
    );
    const env = { XDG_CONFIG_HOME: home } as Environment;
    expect(loadConfig(env).temporalAddress).toBe('from-home:7233');
  });
});

describe('a bad Temporal setting', () => {
  it('names a certificate, key or CA file that does not exist', () => {
    const absent = join(dir, 'absent.pem');
    expect(
      refusal({ TEMPORAL_TLS_CLIENT_CERT_PATH: absent, TEMPORAL_TLS_CLIENT_KEY_PATH: key }),
    ).toBe(`the Temporal TLS client certificate ${absent} does not exist`);
    expect(
      refusal({ TEMPORAL_TLS_CLIENT_CERT_PATH: cert, TEMPORAL_TLS_CLIENT_KEY_PATH: absent }),
    ).toBe(`the Temporal TLS client key ${absent} does not exist`);
    expect(refusal({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: absent })).toBe(
      `the Temporal TLS server CA certificate ${absent} does not exist`,
    );
    const broken = write(
      'broken.toml',
      `[profile.default.tls]\nserver_ca_cert_path = "${absent}"\n`,
    );
    expect(refusal({ TEMPORAL_CONFIG_FILE: broken })).toBe(
      `the Temporal TLS server CA certificate ${absent} does not exist`,
    );
  });

  it('refuses a client certificate without its key, and a key without its certificate', () => {
    expect(refusal({ TEMPORAL_TLS_CLIENT_CERT_PATH: cert })).toBe(
      'a Temporal TLS client certificate needs its key: set TEMPORAL_TLS_CLIENT_KEY_PATH or _DATA',
    );
    expect(refusal({ TEMPORAL_TLS_CLIENT_KEY_DATA: 'key text' })).toBe(
      'a Temporal TLS client key needs its certificate: set TEMPORAL_TLS_CLIENT_CERT_PATH or _DATA',
    );
  });

  it('refuses a path and data for the same file', () => {
    expect(
      refusal({
        TEMPORAL_TLS_CLIENT_CERT_PATH: cert,
        TEMPORAL_TLS_CLIENT_CERT_DATA: 'cert text',
        TEMPORAL_TLS_CLIENT_KEY_PATH: key,
      }),
    ).toBe(
      'the Temporal TLS client certificate is set as a path and as data: keep one ' +
        '(TEMPORAL_TLS_CLIENT_CERT_PATH or TEMPORAL_TLS_CLIENT_CERT_DATA; ' +
        'client_cert_path or client_cert_data in the default temporal.toml)',
    );
  });

  it('names a profile that is not in the file, and the profiles that are', () => {
    expect(refusal({ TEMPORAL_CONFIG_FILE: profiles, TEMPORAL_PROFILE: 'staging' })).toBe(
      `TEMPORAL_PROFILE staging is not a profile in ${profiles} (its profiles: default, cloud, mtls)`,
    );
    expect(refusal({ TEMPORAL_PROFILE: 'staging' })).toBe(
      'TEMPORAL_PROFILE staging is not a profile in the default temporal.toml (its profiles: none)',
    );
  });

  it('refuses a TEMPORAL_CONFIG_FILE that does not exist or is not TOML', () => {
    const absent = join(dir, 'absent.toml');
    expect(refusal({ TEMPORAL_CONFIG_FILE: absent })).toBe(
      `TEMPORAL_CONFIG_FILE ${absent} does not exist`,
    );
    const notToml = write('not.toml', '[profile.default]\naddress = \n');
    expect(refusal({ TEMPORAL_CONFIG_FILE: notToml })).toBe(
      `${notToml} is not valid TOML: invalid value (line 2)`,
    );
  });
});
