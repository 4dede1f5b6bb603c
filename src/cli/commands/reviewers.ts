import { type Command, InvalidArgumentError } from 'commander';
import { issueCredential } from '../../wire/credentials.js';
import { SIGN_IN_SECONDS, signInPath } from '../../wire/page.js';
import { apiAddressOf, identifier, usage, withStore } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { configOf, printTo, type Terminal } from '../terminal.js';

// `evalflow reviewers link`: a reviewer's sign-in link for the reviewers' page, a short-lived
// token acting as reviewer:{id} in one workspace, written straight to the store the API reads
// (as `POST /v1/reviewers/{id}/sign-in` makes one). The token rides in the link's fragment, which
// a browser never sends, so it reaches no server's log. `--admin` makes an admin's link instead,
// from the command line only (whoever runs it holds the store): the page then offers an admin's
// actions, such as promoting a tuned judge.

const UNITS: Record<string, number> = { s: 1, m: 60, h: 60 * 60, d: 24 * 60 * 60 };

/** `90s`, `30m`, `8h`, `1d` (a plain number is seconds), within the sign-in token's bounds. */
export function duration(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * (UNITS[match[2] || 's'] ?? 1) : Number.NaN;
  if (
    !Number.isSafeInteger(seconds) ||
    seconds < SIGN_IN_SECONDS.min ||
    seconds > SIGN_IN_SECONDS.max
  ) {
    throw new InvalidArgumentError(
      `a duration from 60s to 24h, written like 30m, 8h or 1d, not ${value}`,
    );
  }
  return seconds;
}

export function registerReviewers(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const reviewers = program
    .command('reviewers')
    .description("reviewers' sign-in links for the reviewers' page");
  withExamples(
    reviewers
      .command('link')
      .description(
        "make a reviewer's short-lived sign-in link and print it: the page's URL with the token in its fragment",
      )
      .requiredOption('--workspace <id>', 'the workspace the reviewer works in', identifier)
      .option('--reviewer <id>', 'the reviewer: the link acts as reviewer:<id>', identifier)
      .option(
        '--admin',
        "an admin's link instead: it acts as admin, and the page offers an admin's actions",
      )
      .option(
        '--expires-in <duration>',
        'how long the link works, 60s to 24h (default 8h)',
        duration,
      )
      .option(
        '--base-url <url>',
        "the API's address as the reviewer reaches it (default: the API of the engine running from this folder, else EVALFLOW_API_HOST and EVALFLOW_API_PORT)",
      )
      .option('--json', 'print one JSON object {url, principal, expiresAt, id}'),
    'evalflow reviewers link --workspace acme --reviewer grace',
    'evalflow reviewers link --workspace acme --reviewer grace --expires-in 30m --base-url https://evalflow.example.com',
    'evalflow reviewers link --workspace acme --admin --expires-in 1h',
  ).action(
    async (options: {
      workspace: string;
      reviewer?: string;
      admin?: boolean;
      expiresIn?: number;
      baseUrl?: string;
      json?: boolean;
    }) => {
      if ((options.reviewer === undefined) === (options.admin !== true)) {
        return usage(
          'name the reviewer (--reviewer <id>) or make an admin’s link (--admin): one of them',
        );
      }
      const principal =
        options.reviewer === undefined
          ? ({ kind: 'admin' } as const)
          : ({ kind: 'reviewer', id: options.reviewer } as const);
      const config = configOf(terminal);
      const base = options.baseUrl ?? apiAddressOf(terminal);
      let origin: string;
      try {
        origin = new URL(base).toString().replace(/\/+$/, '');
      } catch {
        return usage(`--base-url is a URL such as http://127.0.0.1:8787, not ${base}`);
      }
      const expiresAt = new Date(
        Date.now() + (options.expiresIn ?? SIGN_IN_SECONDS.default) * 1000,
      );
      const issued = await withStore(config, (store) =>
        issueCredential(store, {
          kind: 'sign_in',
          workspaceId: options.workspace,
          principal,
          expiresAt,
        }),
      );
      const url = `${origin}${signInPath(issued.key, principal.kind === 'admin' ? 'admin' : undefined)}`;
      if (options.json) {
        print(
          JSON.stringify({
            url,
            principal: issued.record.principal,
            expiresAt: expiresAt.toISOString(),
            id: issued.record.id,
          }),
        );
        return;
      }
      print(
        `sign-in link for ${issued.record.principal} in ${options.workspace}, until ${expiresAt.toISOString()}:`,
      );
      print(url);
      print('(the token is in the fragment after #, which browsers never send to a server)');
    },
  );
}
