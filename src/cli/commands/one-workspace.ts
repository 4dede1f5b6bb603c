import type { Command } from 'commander';
import type { AppDefinition } from '../../config/index.js';
import { counted } from '../../core/index.js';
import type { EventLog, Store } from '../../store/index.js';
import { APP_OPTION, appOf, identifier, usage, withStore } from '../context.js';
import type { Terminal } from '../terminal.js';

// The commands that work in one workspace (agreement, judges, rules promote): `--workspace` names
// it, else the store's only one is meant.

/** Their `--workspace` option, the same on each. */
export const ONE_WORKSPACE_OPTION = [
  '--workspace <id>',
  'the workspace (default: the store’s only one)',
  identifier,
] as const;

/** The two options `inOneWorkspace` reads, `--workspace` then `--config`, on a command. */
export function withOneWorkspace(command: Command): Command {
  return command.option(...ONE_WORKSPACE_OPTION).option(...APP_OPTION);
}

/** The workspace named, else the store's only one. */
export async function oneWorkspace(
  store: Pick<EventLog, 'workspaces'>,
  named: string | undefined,
): Promise<string> {
  if (named !== undefined) return named;
  const all = await store.workspaces();
  if (all.length === 1) return all[0] as string;
  return usage(
    all.length === 0
      ? 'the store has no workspaces yet: name one with --workspace'
      : `the store has ${counted(all.length, 'workspace')} (${all.join(', ')}): name one with --workspace`,
  );
}

/** Reads the app (`appOf`), opens its store and runs `work` there in the one workspace. */
export async function inOneWorkspace<T>(
  terminal: Terminal,
  options: { workspace?: string; config?: string },
  work: (store: Store, app: AppDefinition, workspace: string) => Promise<T>,
): Promise<T> {
  const { config, app } = await appOf(options, terminal);
  return withStore(
    config,
    async (store) => work(store, app, await oneWorkspace(store, options.workspace)),
    app,
  );
}
