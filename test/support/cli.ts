import { runCli } from '../../src/cli/program.js';

// The command line as a test calls it: in this process, on a terminal of its own (the folder,
// the environment, and stdout and stderr gathered), as `evalflow ARGS...` would run there.
// Spawning `bin/evalflow.js` is for what only a process shows (test/cli/bin.test.ts).

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** `evalflow ARGS...` run in `cwd` with `env`, once it is done. */
export async function cliInProcess(
  args: readonly string[],
  { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'evalflow', ...args], {
    cwd,
    env,
    stdout: {
      isTTY: false,
      write: (text: string) => {
        out += text;
        return true;
      },
    },
    stderr: {
      write: (text: string) => {
        err += text;
        return true;
      },
    },
  });
  return { code, out, err };
}
