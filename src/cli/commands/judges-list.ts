import type { StoredJudgeVersion } from '../../core/index.js';
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

/** One version as the list shows it. */
interface ListedVersion {
  id: string;
  source: 'declared' | 'recorded';
  model: string;
  feedbackType: string;
  tunedFrom: string | null;
  examples: number;
  heldOut: number;
  recordedAt: string | null;
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
  const declared: ListedVersion[] = app.evaluators.list().flatMap((evaluator) =>
    evaluator.judge === undefined
      ? []
      : [
          {
            id: evaluator.id,
            source: 'declared' as const,
            model: evaluator.judge.model,
            feedbackType: evaluator.feedbackType.name,
            tunedFrom: null,
            examples: 0,
            heldOut: 0,
            recordedAt: null,
          },
        ],
  );
  const listed = [...declared, ...versions.map(listedOf)];
  const print = printTo(terminal);
  if (options.json) return print(JSON.stringify({ workspace, versions: listed }));
  printList(workspace, listed, print);
}

const listedOf = (version: StoredJudgeVersion): ListedVersion => ({
  id: `${version.judge}@${version.version}`,
  source: 'recorded',
  model: version.model,
  feedbackType: version.feedbackType,
  tunedFrom: `${version.judge}@${version.tunedFrom}`,
  examples: version.examples.length,
  heldOut: version.heldOut.length,
  recordedAt: version.recordedAt,
});

function printList(workspace: string, versions: readonly ListedVersion[], print: Print): void {
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
