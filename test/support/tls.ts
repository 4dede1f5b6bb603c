import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';

// The Temporal CLI dev server has no TLS flags (`temporal server start-dev --help`), so tests put
// a TLS terminator in front of it: mutual TLS with certificates made by openssl for the test,
// then the bytes as they are to the dev server's plain port. gRPC speaks HTTP/2 on both sides.

export interface Certificates {
  /** The CA that signed both certificates: the server's trust root and the client's. */
  caPath: string;
  serverName: string;
  server: { certPath: string; keyPath: string };
  client: { certPath: string; keyPath: string; commonName: string };
}

/** A throwaway CA, a server certificate for `serverName`, and a client certificate, in `dir`. */
export function makeCertificates(dir: string, serverName: string): Certificates {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    ...['-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1'],
    ...['-subj', '/CN=evalflow test CA'],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
  );
  const issue = (name: string, subject: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'req',
      ...ec,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-subj',
      subject,
    );
    openssl(
      'x509',
      '-req',
      ...['-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key')],
      ...['-CAcreateserial', '-days', '1', '-out', file(`${name}.pem`)],
      ...['-extfile', file(`${name}.ext`)],
    );
    return { certPath: file(`${name}.pem`), keyPath: file(`${name}.key`) };
  };
  const commonName = 'evalflow-worker';
  return {
    caPath: file('ca.pem'),
    serverName,
    server: issue(
      'server',
      `/CN=${serverName}`,
      `subjectAltName=DNS:${serverName}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    ),
    client: {
      ...issue(
        'client',
        `/CN=${commonName}`,
        'extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n',
      ),
      commonName,
    },
  };
}

export interface TlsProxy {
  port: number;
  /** The common name of each client certificate a connection was accepted with. */
  readonly clients: string[];
  close(): Promise<void>;
}

/** Accepts only clients with a certificate from the test CA, and forwards them to `target`. */
export async function tlsProxy(certificates: Certificates, target: number): Promise<TlsProxy> {
  const clients: string[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer(
    {
      cert: readFileSync(certificates.server.certPath),
      key: readFileSync(certificates.server.keyPath),
      ca: readFileSync(certificates.caPath),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (socket: TLSSocket) => {
      clients.push(String(socket.getPeerCertificate().subject.CN));
      const upstream = connect(target, '127.0.0.1');
      track(socket);
      track(upstream);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return {
    port: address.port,
    clients,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
