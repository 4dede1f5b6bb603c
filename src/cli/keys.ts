import { issueCredential, PRINCIPAL_FORMS, parsePrincipal } from '../api/index.js';
import type { Config } from '../config/index.js';
import { builtinApp } from '../config/index.js';
import { openStore, type Store } from '../store/index.js';
import { UsageError } from './errors.js';

// `evalflow keys create|list|revoke`: API keys, written straight to the store every API process
// reads. A key is printed once; only its hash is kept.

async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
  // Keys need no feedback types: any app's store holds them.
  const store = await openStore({ ...builtinApp(null), ...config.store });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
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
