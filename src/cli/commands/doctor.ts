import type { Command } from 'commander';
import type { Config } from '../../config/index.js';
import { CONFIG_OPTION } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { type Check, runDoctor } from '../supervision/health-checks.js';
import { configOf, ExitCode, printTo, type Terminal } from '../terminal.js';

export function registerDoctor(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    program
      .command('doctor')
      .description(
        'check Temporal and its namespace, the store’s schema, the score sink, the config file and leftover dev servers; exits non-zero on any failure',
      )
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON object {ok, checks: [{name, ok, detail, fix}]}'),
    'evalflow doctor',
    'evalflow doctor --json',
  ).action(async (options: { config?: string; json?: boolean }) => {
    const checks = await environmentChecks(options.config, terminal);
    const ok = checks.every((check) => check.ok);
    if (options.json) print(JSON.stringify({ ok, checks }));
    else for (const check of checks) print(checkLine(check));
    if (!ok) throw new ExitCode(1);
  });
}

/** Every check; when the environment itself is wrong, only that one, since the rest read it. */
async function environmentChecks(
  configFile: string | undefined,
  terminal: Terminal,
): Promise<Check[]> {
  let config: Config;
  try {
    config = configOf(terminal);
  } catch (error) {
    return [
      {
        name: 'environment',
        ok: false,
        detail: (error as Error).message,
        fix: 'set the variables as the message says (see the README’s Configuration)',
      },
    ];
  }
  return runDoctor(config, { configFile, cwd: terminal.cwd });
}

const NAME_WIDTH = Math.max(
  ...['environment', 'config', 'temporal', 'store', 'scores', 'dev server'].map((n) => n.length),
);

/** `OK   store        SQLite at ... is at schema version 4, the latest`. */
export function checkLine(check: Check): string {
  const head = `${check.ok ? 'OK  ' : 'FAIL'} ${check.name.padEnd(NAME_WIDTH)}  ${check.detail}`;
  return check.fix ? `${head}; fix: ${check.fix}` : head;
}
