import { type WireJudgeVersion, wireJudgeVersions } from '../../wire/judge-versions.js';
import type { Print } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { inOneWorkspace } from './one-workspace.js';

// `evalflow judges list`: the LLM judges' versions, those the app declares in code beside those
// recorded as data in the workspace, each with what it answers with and, for a recorded one,
// what it was tuned from, its examples and its held-out targets.

export interface ListOptions {
  workspace?: string;
  config?: string;
  json?: boolean;
}

export async function listJudges(terminal: Terminal, options: ListOptions): Promise<void> {
  const { workspace, listed } = await inOneWorkspace(
    terminal,
    options,
    async (store, app, workspace) => ({
      workspace,
      listed: wireJudgeVersions(app.evaluators.list(), await store.judgeVersions.list(workspace)),
    }),
  );
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
