import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, commandsOf } from '../../src/cli/program.js';
import { DEFAULTS } from '../../src/config/index.js';
import { finished, repoRoot, runTypeScript } from '../support/processes.js';
import { blocksOf, documents, writeModule } from './doc-blocks.js';

// The README's and docs' code blocks, as a reader copies them, so a signature, a flag or a port
// cannot drift from the code again:
// - every TypeScript block type-checks against the sources, a document's blocks as one module in
//   order, after what the document says they assume (`given` below);
// - the blocks meant to run, run: conformance.md's here, client.md's against a real API in
//   client-blocks.temporal.test.ts; the README's example files run in their own tests;
// - every `evalflow` command line of a shell block parses with the CLI's own definitions (the
//   commands, flags and arguments `--help` shows), and `npm run` names a script.

/** What each document's TypeScript blocks assume. A document not named here has none. */
const given: Record<string, string> = {
  'README.md': `import type { Store } from 'evalflow/store';
declare const store: Store;`,
  'docs/client.md': '',
  'docs/conformance.md': '',
  'docs/evaluators.md': '',
  'docs/operations.md': '',
  'docs/limits.md': `import type { Client } from '@temporalio/client';
import { type AppDefinition, loadConfig } from 'evalflow';
import { ReviewClient } from 'evalflow/workflow-clients';
import { openStore } from 'evalflow/store';
declare const app: AppDefinition;
declare const client: Client;
declare const taskQueue: string;
const config = loadConfig();`,
  'docs/specification.md': `import { z } from 'zod';`,
  'docs/traces.md': '',
};
/** The README's blocks that are whole example files: tsc checks the files themselves. */
const exampleFile = (block: { text: string }) => block.text.startsWith('// examples/');

const written: string[] = [];
afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe('the TypeScript blocks', () => {
  it('are in documents that say what they assume', () => {
    const withBlocks = documents.filter((document) =>
      blocksOf(document).some((block) => block.language === 'ts' && !exampleFile(block)),
    );
    expect(withBlocks.sort()).toEqual(Object.keys(given).sort());
  });

  // A program over the sources the blocks import: about 10 s on two quiet cores, far longer on a
  // loaded machine.
  it('type-check against the sources, each document as one module', { timeout: 240_000 }, () => {
    const modules = Object.entries(given).map(([document, prelude]) => ({
      document,
      ...writeModule(document, prelude, { skip: exampleFile }),
    }));
    written.push(...modules.map((module) => module.file));
    const parsed = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.json',
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (parsed === undefined) throw new Error('tsconfig.json did not parse');
    const program = ts.createProgram(
      modules.map((module) => module.file),
      parsed.options,
    );
    const problems = modules.flatMap(({ document, file, origins }) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const at =
          diagnostic.file && diagnostic.start !== undefined
            ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line
            : -1;
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        return `${document}:${origins[at] ?? '?'}: ${text}`;
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe('the blocks meant to run', () => {
  it("conformance.md's TypeScript runs its case file on the core and on SQLite", async () => {
    const { file } = writeModule('docs/conformance.md', given['docs/conformance.md'] ?? '');
    written.push(file);
    const cwd = mkdtempSync(join(tmpdir(), 'evalflow-doc-blocks-'));
    try {
      const cases = JSON.parse(readFileSync('test/conformance/runs.json', 'utf8')) as {
        cases: { name: string }[];
      };
      copyFileSync(resolve('test/conformance/runs.json'), join(cwd, 'cases.json'));
      const ran = await finished(runTypeScript(file, [], { cwd, env: process.env }));
      expect(ran.err).toBe('');
      expect(ran.code).toBe(0);
      const names = cases.cases.map((testCase) => `${testCase.name} []`);
      expect(ran.out.trim().split('\n')).toEqual([...names, ...names]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

/** A shell line's words, as sh splits them: quotes kept together, a comment dropped. */
function words(line: string): string[] {
  const found: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) found.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) found.push(word);
  return found;
}

/** Each command of the documents' shell blocks: continued lines joined, comments dropped. */
const commandLines = documents.flatMap((document) =>
  blocksOf(document)
    .filter((block) => block.language === 'sh')
    .flatMap((block) =>
      block.text
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((line) => ({ document, line: block.line, words: words(line) }))
        .filter((command) => command.words.length > 0),
    ),
);

/** The words after the environment assignments (`A=b evalflow ...`) and their values. */
function command(line: string[]): { env: Record<string, string>; rest: string[] } {
  const env: Record<string, string> = {};
  let index = 0;
  for (; index < line.length && /^[A-Z_]+=/.test(line[index] ?? ''); index++) {
    const [name = '', ...value] = (line[index] ?? '').split('=');
    env[name] = value.join('=');
  }
  return { env, rest: line.slice(index) };
}

/** The CLI's arguments a command line gives `evalflow`, if it runs evalflow. */
function evalflowArgs(rest: string[]): string[] | undefined {
  const [first, second, third] = rest;
  if (first === 'npm' && second === 'start')
    return ['start', ...rest.slice(third === '--' ? 3 : 2)];
  // `evalflow`, `npx evalflow`, `node bin/evalflow.js` (in a container, say); to docker,
  // `evalflow` is the image's name.
  const at = rest.findIndex(
    (word) => (word === 'evalflow' && first !== 'docker') || word === 'bin/evalflow.js',
  );
  return at === -1 ? undefined : rest.slice(at + 1);
}

describe('the command lines of the shell blocks', () => {
  const evalflowLines = commandLines.flatMap((line) => {
    const args = evalflowArgs(command(line.words).rest);
    return args === undefined ? [] : [{ ...line, args }];
  });

  it('are many, in the README and the docs', () => {
    expect(evalflowLines.length).toBeGreaterThan(40);
    expect(new Set(evalflowLines.map((line) => line.document))).toEqual(
      new Set([
        'README.md',
        'docs/api.md',
        'docs/commands.md',
        'docs/conformance.md',
        'docs/deploy.md',
        'docs/operations.md',
        'docs/traces.md',
      ]),
    );
  });

  it.each(
    evalflowLines.map((line) => [`${line.document}:${line.line}`, line.args.join(' '), line.args]),
  )('%s: evalflow %s parses with the CLI', async (_, __, args) => {
    const program = buildProgram();
    let ran = '';
    for (const each of commandsOf(program)) {
      each.action(() => {
        ran = each.name();
      });
    }
    await program.parseAsync(args as string[], { from: 'user' });
    expect(ran, 'names a command that runs').not.toBe('');
  });

  // A checkout has no `evalflow` on its PATH; `npx evalflow` runs it there and where installed
  // (the README says so once, where it first runs the CLI).
  it('run the CLI as npx evalflow, never a bare evalflow', () => {
    const bare = commandLines
      .filter((line) => command(line.words).rest[0] === 'evalflow')
      .map((line) => `${line.document}:${line.line}: ${line.words.join(' ')}`);
    expect(bare).toEqual([]);
  });

  it('name scripts package.json has with npm run', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: object }).scripts,
    );
    const named = commandLines.flatMap((line) => {
      const [npm, run, script] = command(line.words).rest;
      return npm === 'npm' && run === 'run' && script ? [script] : [];
    });
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((script) => !scripts.includes(script))).toEqual([]);
  });

  it("point EVALFLOW_URL at the API's default address", () => {
    const urls = commandLines.flatMap((line) => command(line.words).env.EVALFLOW_URL ?? []);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toBe(`http://${DEFAULTS.apiHost}:${DEFAULTS.apiPort}`);
  });

  it("conformance.md's command runs, as written, every case file here", async () => {
    const block = blocksOf('docs/conformance.md').find((each) => each.language === 'sh');
    expect(block?.text).toBe('npx evalflow conformance test/conformance/*.json\n');
    const ran = await finished(
      spawn('sh', ['-c', block?.text ?? ''], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    expect(ran.err).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/^ok /m);
    expect(ran.out).not.toMatch(/^FAIL/m);
  });
});
