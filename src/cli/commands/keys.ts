import type { Command } from 'commander';
import type { Config } from '../../config/index.js';
import { issueCredential } from '../../wire/credentials.js';
import { PRINCIPAL_FORMS, parsePrincipal } from '../../wire/principals.js';
import { withStore } from '../context.js';
import { UsageError } from '../errors.js';
import { withExamples } from '../presentation/examples.js';
import { configOf, printTo, type Terminal } from '../terminal.js';

// `evalflow keys create|list|revoke`: API keys, written straight to the store every API process
// reads (keys need no feedback types: any app's store holds them). A key is printed once; only
// its hash is kept.

export function registerKeys(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const keys = program
    .command('keys')
    .description('API keys: each bound to one workspace and one principal');
  withExamples(
    keys
      .command('create')
      .description('create a key and print it once')
      .requiredOption('--workspace <id>', 'the workspace the key may read and write')
      .requiredOption(
        '--principal <principal>',
        'system, admin, agent, user:<id>, reviewer:<id> or evaluator:<name>@<version>',
      )
      .option('--name <label>', 'what the key is for')
      .option('--json', 'print one JSON object {id, key, workspace, principal}'),
    'evalflow keys create --workspace acme --principal agent --json',
  ).action((options: { workspace: string; principal: string; name?: string; json?: boolean }) =>
    createKey(configOf(terminal), options, print),
  );
  withExamples(
    keys
      .command('list')
      .description('list the keys (never their secrets)')
      .option('--workspace <id>', 'only this workspace')
      .option('--json', 'print one JSON array of key records'),
    'evalflow keys list --workspace acme',
  ).action((options: { workspace?: string; json?: boolean }) =>
    listKeys(configOf(terminal), options, print),
  );
  withExamples(
    keys
      .command('revoke')
      .description('revoke a key: it answers 401 at once')
      .argument('<id>', "the key's id")
      .option('--json', 'print one JSON object {id, revoked}'),
    'evalflow keys revoke 0193f1c2a8e07b3c9d2e4f5a6b7c8d9e',
  ).action((id: string, options: { json?: boolean }) =>
    revokeKey(configOf(terminal), id, options, print),
  );
}

export async function createKey(
  config: Config,
  options: { workspace: string; principal: string; name?: string; json?: boolean },
  print: (line: string) => void,
): Promise<void> {
  const principal = parsePrincipal(options.principal);
  if (principal === null) {
    throw new UsageError(
      `--principal is one of ${PRINCIPAL_FORMS.join(', ')}, not ${options.principal}`,
    );
  }
  if (!/^[^\s]{1,256}$/.test(options.workspace)) {
    throw new UsageError(
      `--workspace is 1 to 256 characters without spaces, not ${options.workspace}`,
    );
  }
  const issued = await withStore(config, (store) =>
    issueCredential(store, {
      kind: 'key',
      workspaceId: options.workspace,
      principal,
      name: options.name ?? null,
    }),
  );
  if (options.json) {
    print(
      JSON.stringify({
        id: issued.record.id,
        key: issued.key,
        workspace: issued.record.workspace_id,
        principal: issued.record.principal,
      }),
    );
    return;
  }
  print(
    `key ${issued.record.id} for ${issued.record.principal} in workspace ${issued.record.workspace_id}:`,
  );
  print(issued.key);
  print('(shown once: only its hash is stored)');
}

export async function listKeys(
  config: Config,
  options: { workspace?: string; json?: boolean },
  print: (line: string) => void,
): Promise<void> {
  const keys = await withStore(config, (store) =>
    store.apiKeys.list(options.workspace ? { workspace_id: options.workspace } : {}),
  );
  if (options.json) {
    print(JSON.stringify(keys));
    return;
  }
  if (keys.length === 0) {
    print('no keys');
    return;
  }
  for (const key of keys) {
    const state = key.revoked_at ? `revoked ${key.revoked_at}` : 'active';
    print(
      `${key.id}  ${key.workspace_id}  ${key.principal}  ${state}${key.name ? `  ${key.name}` : ''}`,
    );
  }
}

export async function revokeKey(
  config: Config,
  id: string,
  options: { json?: boolean },
  print: (line: string) => void,
): Promise<void> {
  const revoked = await withStore(config, (store) => store.apiKeys.revoke(id));
  if (!revoked) throw new UsageError(`no active key ${id}`);
  print(options.json ? JSON.stringify({ id, revoked: true }) : `revoked ${id}`);
}
