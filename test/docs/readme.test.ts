import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README's examples are the ones tests run (test/cli/start-app.temporal.test.ts and
// test/clients/typescript-host.temporal.test.ts): each code block that names an example file on
// its first line must be that file, exactly.

const readme = readFileSync('README.md', 'utf8');
const blocks = [...readme.matchAll(/```ts\n\/\/ (examples\/\S+)\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1] as string,
  text: m[2] as string,
}));

describe('the README', () => {
  it('shows the example app and its host programs', () => {
    expect(blocks.map((b) => b.file)).toEqual([
      'examples/quickstart/evalflow.config.ts',
      'examples/quickstart/host.ts',
      'examples/quickstart/http-host.ts',
    ]);
  });

  it.each(blocks)('shows $file exactly as the tests run it', ({ file, text }) => {
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});
