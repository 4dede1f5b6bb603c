import {
  evaluatorParticipant,
  type JudgeExample,
  type JudgeVersion,
  judgeVersionId,
  targetKey,
} from '../core/index.js';
import type { EvaluatorRegistry } from '../evaluators/index.js';
import type { JudgeVersions, UsageLedger } from '../store/index.js';
import { judgeMessages, promptChars } from '../tuning/index.js';

// The input tokens a tuned judge version's prompt adds to its base's, before it has made a call:
// its added characters (examples with their notes and verdicts, a rubric's difference) at the
// base's input tokens per character, measured on the base's calls on the version's example
// targets (each example's text is what the base read there, so those prompts are known whole).
// A chat format spends tokens per message that no character count shows, and a verdict's JSON is
// denser than prose: what each added message costs beyond its characters is learned from the
// versions of the same model recorded before that have judged targets their base judged too.

export interface AddedTokensDeps {
  store: {
    usage: Pick<UsageLedger, 'usageOn'>;
    judgeVersions: Pick<JudgeVersions, 'get' | 'list'>;
  };
  evaluators: EvaluatorRegistry;
}

/** What a version's prompt is built from. */
interface Prompt {
  rubric: string;
  model: string;
  examples: readonly JudgeExample[];
}

/** A version's prompt against its base's: the characters and messages it adds, and the rate. */
interface Addition {
  chars: number;
  messages: number;
  /** The base's input tokens per character of prompt, on its calls on the example targets. */
  tokensPerChar: number;
}

/**
 * The input tokens per evaluation `version`'s prompt adds to its base's; null when its base runs
 * another model or judged none of its example targets here.
 */
export async function addedInputTokens(
  deps: AddedTokensDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<number | null> {
  const addition = await additionOf(deps, workspaceId, version);
  if (addition === null) return null;
  const byChars = addition.chars * addition.tokensPerChar;
  // No message added (a rubric changed alone): nothing to learn from the other versions.
  if (addition.messages === 0) return byChars;
  return byChars + addition.messages * (await tokensPerAddedMessage(deps, workspaceId, version));
}

async function additionOf(
  deps: AddedTokensDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<Addition | null> {
  const base = await basePrompt(deps, workspaceId, version);
  if (base === undefined || base.model !== version.model) return null;
  const textOf = new Map(version.examples.map((e) => [targetKey(e.target), e.text]));
  const calls = await deps.store.usage.usageOn(baseOf(version), workspaceId, [...textOf.keys()]);
  let tokens = 0;
  let chars = 0;
  for (const { target_key, reports, input_tokens } of calls) {
    tokens += input_tokens;
    chars += reports * promptChars(base, textOf.get(target_key) ?? '');
  }
  if (chars === 0) return null;
  return {
    chars: promptChars(version, '') - promptChars(base, ''),
    messages: judgeMessages(version, '').length - judgeMessages(base, '').length,
    tokensPerChar: tokens / chars,
  };
}

/**
 * What each added message costs beyond its characters at the base's rate, pooled over the
 * versions of the same model recorded here that judged targets their base judged too: each one's
 * measured addition (its input tokens less its base's, target by target) less its characters'
 * share, over the messages it added. 0 before any such version.
 */
async function tokensPerAddedMessage(
  deps: AddedTokensDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<number> {
  let beyond = 0;
  let messages = 0;
  for (const other of await deps.store.judgeVersions.list(workspaceId)) {
    if (other.model !== version.model || judgeVersionId(other) === judgeVersionId(version))
      continue;
    const addition = await additionOf(deps, workspaceId, other);
    const measured = addition && (await measuredAddition(deps, workspaceId, other));
    if (addition === null || measured === null || addition.messages === 0) continue;
    beyond += measured - addition.chars * addition.tokensPerChar;
    messages += addition.messages;
  }
  return messages === 0 ? 0 : beyond / messages;
}

/**
 * The input tokens a version's calls spent beyond its base's on the same held-out targets, per
 * call, averaged over the targets both judged; null when none.
 */
async function measuredAddition(
  deps: AddedTokensDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<number | null> {
  const keys = version.heldOut.map(targetKey);
  const participant = evaluatorParticipant({ name: version.judge, version: version.version });
  const own = await deps.store.usage.usageOn(participant, workspaceId, keys);
  const base = new Map(
    (await deps.store.usage.usageOn(baseOf(version), workspaceId, keys)).map((t) => [
      t.target_key,
      t,
    ]),
  );
  let sum = 0;
  let shared = 0;
  for (const target of own) {
    const theirs = base.get(target.target_key);
    if (theirs === undefined) continue;
    sum += target.input_tokens / target.reports - theirs.input_tokens / theirs.reports;
    shared += 1;
  }
  return shared === 0 ? null : sum / shared;
}

/** The participant of the version `version` was tuned from. */
const baseOf = (version: JudgeVersion) =>
  evaluatorParticipant({ name: version.judge, version: version.tunedFrom });

/** The base's rubric, model and examples: declared in code (no examples), or recorded. */
async function basePrompt(
  deps: AddedTokensDeps,
  workspaceId: string,
  version: JudgeVersion,
): Promise<Prompt | undefined> {
  const declared = deps.evaluators.get({ name: version.judge, version: version.tunedFrom })?.judge;
  if (declared !== undefined)
    return { rubric: declared.rubric, model: declared.model, examples: [] };
  const id = judgeVersionId({ judge: version.judge, version: version.tunedFrom });
  return (await deps.store.judgeVersions.get(workspaceId, id)) ?? undefined;
}
