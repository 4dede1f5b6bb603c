import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Command } from 'commander';
import { wholeNumber } from '../context.js';
import { DEMO_WORKSPACE, demoApp } from '../demo/demo-app.js';
import { DemoHttp } from '../demo/demo-http.js';
import { printReport } from '../demo/demo-report.js';
import { startDemoEngine } from '../demo/demo-stack.js';
import { type Keys, runStory } from '../demo/demo-story.js';
import { withExamples } from '../presentation/examples.js';
import { pageLine } from '../presentation/page-line.js';
import { printTo, type Terminal } from '../terminal.js';

// `evalflow demo` (`npm run demo`): the engine on embedded defaults in a folder of its own, a
// short story told through the HTTP API, and the tables that show what evalflow made of it.

interface DemoOptions {
  abandonAfter: number;
  keep?: boolean;
}

export function registerDemo(program: Command, terminal: Terminal): void {
  withExamples(
    program
      .command('demo')
      .description(
        'run the engine on embedded defaults and tell a short story through the HTTP API: runs, ratings, a review, a rule switch and a re-evaluation, then the tables',
      )
      .option(
        '--abandon-after <ms>',
        'how long a paused run waits before it is evaluated as it stands (the relay’s abandonAfterMs)',
        wholeNumber,
        3000,
      )
      .option(
        '--keep',
        'keep its state folder afterwards (default: a new temporary folder, removed at the end; a folder --home or EVALFLOW_HOME names is always kept)',
      ),
    'evalflow demo',
    'evalflow demo --abandon-after 5000 --home .evalflow/demo',
  ).action((options: DemoOptions) => runDemo(options, terminal));
}

async function runDemo(options: DemoOptions, terminal: Terminal): Promise<void> {
  const print = printTo(terminal);
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  // The worker's own INFO lines would bury the story; warnings and errors still show.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const named = terminal.env.EVALFLOW_HOME;
  const home = named ? resolve(terminal.cwd, named) : mkdtempSync(join(tmpdir(), 'evalflow-demo-'));
  mkdirSync(home, { recursive: true });
  const engine = await startDemoEngine({
    app: demoApp(),
    home,
    abandonAfterMs: options.abandonAfter,
    log: print,
  });
  try {
    print(
      `evalflow demo: engine up in ${seconds()} s (Temporal ${engine.temporalAddress}, API ${engine.url}, ` +
        `state in ${home})`,
    );
    print(pageLine(engine));
    const principals = {
      agent: 'agent',
      ada: 'user:ada',
      bob: 'user:bob',
      grace: 'reviewer:grace',
      admin: 'admin',
      system: 'system',
    } as const;
    const keys = {} as Keys;
    for (const [who, principal] of Object.entries(principals) as [keyof Keys, string][]) {
      keys[who] = await engine.key(DEMO_WORKSPACE, principal);
    }
    print(`keys for workspace ${DEMO_WORKSPACE}: ${Object.values(principals).join(', ')}`);
    const http = new DemoHttp(engine.url);
    const story = await runStory(http, keys, {
      abandonAfterMs: options.abandonAfter,
      print,
      stream: terminal.stdout,
    });
    await printReport(http, keys.system, story, { abandonAfterMs: options.abandonAfter, print });
    print('');
    print(`evalflow demo: finished in ${seconds()} s`);
  } finally {
    await engine.stop();
    if (!named && !options.keep) rmSync(home, { recursive: true, force: true });
  }
}
