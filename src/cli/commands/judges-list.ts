import { type WireJudgeVersion, wireJudgeVersions } from '../../wire/judge-versions.js';
import { appOf, type Print, withStore } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { oneWorkspace } from './agreement.js';

// `evalflow judges list`: the LLM judges' versions, those the app declares in code beside those
// recorded as data in the workspace, each with what it answers with and, for a recorded one,
// what it was tuned from, its examples and its held-out targets.

export interface ListOptions {
  workspace?: string;
  config?: string;
  json?: boolean;
}

export async function listJudges(terminal: Terminal, options: ListOptions): Promise<void> {
  const { config, app } = await appOf(options, terminal);
  const { workspace, versions } = await withStore(
    config,
    async (store) => {
      const workspace = await oneWorkspace(store, options.workspace);
      return { workspace, versions: await store.judgeVersions.list(workspace) };
    },
    app,
  );
  const listed = wireJudgeVersions(app.evaluators.list(), versions);
  const print = printTo(terminal);
  if (options.json) return print(JSON.stringify({ workspace, versions: listed }));
  printList(workspace, listed, print);
}

function printList(workspace: string, versions: readonly WireJudgeVersion[], print: Print): void {
  if (versions.length === 0) {
    print(`no LLM judge versions in ${workspace}`);
    return;
  }
  print(`LLM judge versions in ${workspace}:`);
  for (const v of versions) {
    const tuned =
      v.tunedFrom === null
        ? 'declared in code'
        : `recorded ${v.recordedAt}, tuned from ${v.tunedFrom}: ${v.examples} examples, ${v.heldOut} held out`;
    print(`  ${v.id}  ${v.model}  ${v.feedbackType}  ${tuned}`);
  }
}
