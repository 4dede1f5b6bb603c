import { Writable } from 'node:stream';

/** A stream that keeps the lines written to it (a log's), and reads them as JSON objects. */
export function captured() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream, json: () => lines.map((line) => JSON.parse(line)) };
}
