import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigFileError,
  InvalidConfigError,
  loadApp,
  loadConfig,
} from '../../src/config/index.js';
import { planOf } from '../../src/evaluators/index.js';

// Inside the project, so a config file finds the project's packages (zod) as a user's would.
mkdirSync('.evalflow/test', { recursive: true });
const dir = mkdtempSync(resolve('.evalflow/test/config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = resolve('src/index.ts');
const config = loadConfig({});
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('loading the app', () => {
  it('runs the built-in evaluators when there is no config file', async () => {
    const { app, source: from } = await loadApp(config, { cwd: join(dir) });
    expect(from).toBe('the built-in evaluators');
    expect(app.evaluators.list().map((e) => e.id)).toEqual([
      'answer_length@1',
      'refusal@1',
      'json_validity@1',
      'turn_outcome@1',
    ]);
  });

  it("adds the LLM judge to the built-ins when the judge's endpoint is configured", async () => {
    const judged = loadConfig({
      EVALFLOW_JUDGE_BASE_URL: 'http://127.0.0.1:1/v1',
      EVALFLOW_JUDGE_MODEL: 'm',
    });
    const { app } = await loadApp(judged, { cwd: dir });
    expect(app.evaluators.targetsOf('llm_judge@1')).toEqual(['artifact', 'message', 'turn']);
  });

  it('judges an answer as prose, and JSON validity only on json artifact versions', async () => {
    const judged = loadConfig({
      EVALFLOW_JUDGE_BASE_URL: 'http://127.0.0.1:1/v1',
      EVALFLOW_JUDGE_MODEL: 'm',
    });
    for (const { app } of [
      await loadApp(config, { cwd: dir }),
      await loadApp(judged, { cwd: dir }),
    ]) {
      const plan = planOf(app.rules, 'ws', {}, app.evaluators);
      const judges = (kind: 'artifact' | 'message' | 'turn') =>
        plan[kind]
          .filter((ref) => ref.name !== 'llm_judge')
          .map((ref) => [`${ref.name}@${ref.version}`, ref.artifactKinds ?? 'every kind']);
      expect(judges('message')).toEqual([
        ['answer_length@1', 'every kind'],
        ['refusal@1', 'every kind'],
      ]);
      expect(judges('turn')).toEqual([['turn_outcome@1', 'every kind']]);
      expect(judges('artifact')).toEqual([['json_validity@1', ['json']]]);
    }
    const withJudge = planOf((await loadApp(judged, { cwd: dir })).app.rules, 'ws');
    expect(withJudge.message.map((ref) => ref.name)).toContain('llm_judge');
  });

  it('loads ./evalflow.config.ts, a TypeScript module whose default export is the app', async () => {
    write(
      'evalflow.config.ts',
      `import { defineConfig, defineFeedbackType } from ${JSON.stringify(source)};
       import { z } from 'zod';
       const stars: number = 5;
       export default defineConfig({
         feedbackTypes: [defineFeedbackType({ name: 'stars', targets: ['message'],
           schema: z.object({ stars: z.int().min(1).max(stars) }) })],
       });`,
    );
    const { app, source: from } = await loadApp(config, { cwd: dir });
    expect(from).toBe('evalflow.config.ts');
    expect(app.feedbackTypes.get('stars')?.targets).toEqual(['message']);
    rmSync(join(dir, 'evalflow.config.ts'));
  });

  it('reads a config file anew when it changed since the process last loaded it', async () => {
    const typeNamed = (name: string) =>
      `import { defineConfig, defineFeedbackType } from ${JSON.stringify(source)};
       import { z } from 'zod';
       export default defineConfig({ feedbackTypes: [defineFeedbackType({ name: '${name}',
         targets: ['message'], schema: z.object({ ok: z.boolean() }) })] });`;
    const file = write('changing.config.ts', typeNamed('before'));
    utimesSync(join(dir, file), 1_000, 1_000);
    const first = await loadApp(config, { cwd: dir, file });
    const again = await loadApp(config, { cwd: dir, file });
    write(file, typeNamed('after'));
    utimesSync(join(dir, file), 2_000, 2_000);
    const changed = await loadApp(config, { cwd: dir, file });
    const named = ({ app }: typeof first) =>
      ['before', 'after'].filter((name) => app.feedbackTypes.get(name) !== undefined);
    expect([first, again, changed].map(named)).toEqual([['before'], ['before'], ['after']]);
  });

  it('takes a plain object as the definition, checked as defineConfig checks it', async () => {
    const file = write('plain.config.mjs', 'export default { evaluators: [] };');
    const { app } = await loadApp(config, { cwd: dir, file });
    expect(app.evaluators.list()).toEqual([]);
  });

  it('names the file and the problem in one line when it cannot define an app', async () => {
    const cases: [string, string, RegExp][] = [
      ['missing.config.ts', '', /^missing\.config\.ts: no such file$/],
      [
        'syntax.config.ts',
        'export default {\n  rules: [{ evaluator: "x@1" }\n};\n',
        /^syntax\.config\.ts: line 3, column 1: Expected "\]" but found "\}"$/,
      ],
      [
        'imports-broken.config.ts',
        'import helper from "./broken-helper.ts";\nexport default helper;',
        /^imports-broken\.config\.ts: \/.*\/broken-helper\.ts line 1, column 11: Unexpected ";"$/,
      ],
      ['none.config.ts', 'export const x = 1;', /^none\.config\.ts: has no default export/],
      [
        'bad.config.ts',
        'export default { rules: [{ evaluator: "nope@1" }] };',
        /^bad\.config\.ts: rules\[0\] names nope@1, which is not among the evaluators \(none declared\)$/,
      ],
      ['throws.config.ts', 'throw new Error("boom\\nsecond line");', /^throws\.config\.ts: boom$/],
    ];
    write('broken-helper.ts', 'const a = ;\nexport default {};');
    for (const [name, text, line] of cases) {
      if (text) write(name, text);
      const error = await loadApp(config, { cwd: dir, file: name }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ConfigFileError);
      expect((error as Error).message, name).toMatch(line);
      expect((error as Error).message, name).not.toContain('\n');
    }
  });

  it('reads the file named by EVALFLOW_CONFIG when no --config is given', async () => {
    const file = write('named.config.mjs', 'export default {};');
    const { source: from } = await loadApp(loadConfig({ EVALFLOW_CONFIG: file }), { cwd: dir });
    expect(from).toBe(file);
    await expect(
      loadApp(loadConfig({ EVALFLOW_CONFIG: 'absent.ts' }), { cwd: dir }),
    ).rejects.toThrow('absent.ts: no such file');
  });
});

describe('loadConfig', () => {
  it('has a default for everything, and a SQLite path of its own', () => {
    expect(loadConfig({})).toMatchObject({
      temporalAddress: null,
      namespace: 'default',
      taskQueue: 'evalflow',
      store: { sqlitePath: '.evalflow/evalflow.db' },
      langfuse: null,
      judge: null,
      tenantId: 'default',
    });
    expect(
      loadConfig({ EVALFLOW_SQLITE_PATH: '/data/e.db', DATABASE_URL: 'postgres://x' }).store,
    ).toEqual({
      databaseUrl: 'postgres://x',
      sqlitePath: '/data/e.db',
    });
  });

  it('refuses half of a group of variables that only work together', () => {
    expect(() => loadConfig({ LANGFUSE_BASE_URL: 'http://x' })).toThrow(
      'set all of LANGFUSE_BASE_URL, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, or none',
    );
    expect(() => loadConfig({ EVALFLOW_JUDGE_MODEL: 'm' })).toThrow(
      'set all of EVALFLOW_JUDGE_BASE_URL, EVALFLOW_JUDGE_MODEL, or none',
    );
  });
});

describe('the API log format', () => {
  it('is text or json when set, and chosen by the terminal when not', () => {
    expect(loadConfig({ EVALFLOW_LOG_FORMAT: 'json' }).api.logFormat).toBe('json');
    expect(loadConfig({ EVALFLOW_LOG_FORMAT: 'text' }).api.logFormat).toBe('text');
    expect(loadConfig({}).api.logFormat).toBeNull();
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => loadConfig({ EVALFLOW_LOG_FORMAT: 'pretty' })).toThrow(
      new InvalidConfigError('EVALFLOW_LOG_FORMAT is text or json, not pretty'),
    );
  });
});
