import { type Command, InvalidArgumentError } from 'commander';
import type { AppDefinition } from '../../config/index.js';
import {
  type EvaluatedKind,
  EvaluatedKindSchema,
  type EvaluationRule,
  EvaluatorId,
  evaluatedKinds,
  modeOf,
  type RuleMode,
  RuleModeSchema,
  rulesInForce,
  type StoredEvaluationRule,
} from '../../core/index.js';
import type { Commands, EvaluationRecords, EventLog, RuleReads } from '../../store/index.js';
import { wireRule } from '../../wire/entities.js';
import {
  APP_OPTION,
  appOf,
  CLI_ACTOR,
  commaList,
  duration,
  identifier,
  type Print,
  sampleRate,
  usage,
  withStore,
  workspacesOf,
} from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { printTo, type Terminal } from '../terminal.js';
import { registerPromote } from './promote.js';

/** The system actor the CLI's rule commands are recorded as (defined with the commands' context). */
export { CLI_ACTOR };

// `evalflow rules list|set`: the evaluation rules in force, and a workspace's own rule for one
// evaluator version. `set` writes a `set_evaluation_rule` command to the store as the system
// (`system:cli`), as the host or `PUT /v1/evaluation-rules/{evaluator}` would; the relays read
// it from the log, so later runs follow it.

type RuleOrigin = 'config' | 'workspace';
/** A rule as `--json` prints it: the API's shape, with its workspace (null: the config's default). */
type ListedRule = ReturnType<typeof wireRule> & { workspace: string | null };

export function registerRules(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const rules = program
    .command('rules')
    .description("evaluation rules: the app's defaults, and each workspace's own per version");

  withExamples(
    rules
      .command('list')
      .description(
        'the rules in force in a workspace, each with its origin (config or workspace); without --workspace, the defaults and every workspace’s own rules',
      )
      .option('--workspace <id>', 'the workspace', identifier)
      .option(...APP_OPTION)
      .option('--json', 'print one JSON array of rules (the API’s shape, with `workspace`)'),
    'evalflow rules list --workspace acme',
    'evalflow rules list --json',
  ).action(async (options: { workspace?: string; config?: string; json?: boolean }) => {
    const { config, app } = await appOf(options, terminal);
    const listed = await withStore(
      config,
      (store) => listRules(store, app, options.workspace),
      app,
    );
    if (options.json) return print(JSON.stringify(listed));
    printRules(listed, print);
  });

  withExamples(
    rules
      .command('set')
      .description(
        "set a workspace's rule for one evaluator version (recorded as system:cli); later runs follow it",
      )
      .argument('<evaluator>', 'the evaluator version, name@version')
      .option(
        '--targets <kinds>',
        `comma-separated: ${evaluatedKinds.join(',')} (default: the rule in force, else every kind it judges)`,
        commaList,
      )
      .option(
        '--sample-rate <rate>',
        'the share of targets judged, 0 to 1 (default: the rule in force, else 1)',
        sampleRate,
      )
      .option(
        '--artifact-kinds <kinds>',
        'judge only artifact versions of these kinds, comma-separated',
        commaList,
      )
      .option(
        '--idle-for <duration>',
        'for thread targets: how long a thread is quiet before it is judged, such as 30m or 1h30m (default: the rule in force, else 30m)',
        duration,
      )
      .option('--disable', 'keep the settings but judge nothing new')
      .option(
        '--mode <mode>',
        'live, or shadow: judge what the live versions of its feedback type judge, never as the current verdict (default: the rule in force, else live)',
        ruleMode,
      )
      .option(
        '--workspace <id>',
        'the workspace (default: every workspace the store holds; new ones follow the config file)',
        identifier,
      )
      .option(...APP_OPTION)
      .option('--json', 'print one JSON array: per workspace {workspace, seq, rule}'),
    'evalflow rules set answer_length@2 --targets message --sample-rate 0.5 --workspace acme',
    'evalflow rules set answer_length@1 --disable --workspace acme',
    'evalflow rules set politeness@2 --mode shadow --workspace acme',
    'evalflow rules set resolution@1 --targets thread --idle-for 2h --workspace acme',
  ).action(async (evaluator: string, options: SetOptions) => {
    if (!EvaluatorId.safeParse(evaluator).success) {
      usage(`an evaluator version is written name@version, not ${evaluator}`);
    }
    const targets = options.targets?.map((kind) => {
      const parsed = EvaluatedKindSchema.safeParse(kind);
      return parsed.success
        ? parsed.data
        : usage(`--targets are some of ${evaluatedKinds.join(', ')}, not ${kind}`);
    });
    const { config, app } = await appOf(options, terminal);
    const results = await withStore(
      config,
      async (store) => {
        const workspaces = await workspacesOf(store, options.workspace);
        if (workspaces.length === 0) {
          usage(
            'the store has no workspaces yet: name one with --workspace (new workspaces follow the config file’s rules)',
          );
        }
        // Every workspace is checked first, so a version unknown in one changes none.
        const kinds = [];
        for (const workspace of workspaces) {
          kinds.push(await kindsJudged(store, app, workspace, evaluator));
        }
        const set = [];
        for (const [i, workspace] of workspaces.entries()) {
          const judges = kinds[i] ?? [];
          set.push(
            await setRule(store, app, workspace, evaluator, judges, { ...options, targets }),
          );
        }
        return set;
      },
      app,
    );
    if (options.json) return print(JSON.stringify(results));
    for (const { workspace, seq, rule } of results) {
      print(
        `set ${rule.evaluator} in ${workspace}: ${rule.targets.join(',')} at ${rule.sampleRate}, ` +
          `${rule.idleFor === null ? '' : `threads quiet for ${rule.idleFor}, `}` +
          `${rule.mode}, ${rule.enabled ? 'enabled' : 'disabled'} (seq ${seq})`,
      );
    }
  });

  registerPromote(rules, terminal);
}

/** `live` or `shadow`. */
function ruleMode(value: string): RuleMode {
  const parsed = RuleModeSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidArgumentError(
      `a mode is ${RuleModeSchema.options.join(' or ')}, not ${value}`,
    );
  }
  return parsed.data;
}

interface SetOptions {
  targets?: EvaluatedKind[];
  sampleRate?: number;
  artifactKinds?: string[];
  idleFor?: string;
  disable?: boolean;
  mode?: RuleMode;
  workspace?: string;
  config?: string;
  json?: boolean;
}

/** The rules in force with their origin, per workspace; without one, the defaults and every override. */
export async function listRules(
  store: RuleReads & Pick<EventLog, 'workspaces'>,
  app: AppDefinition,
  workspace: string | undefined,
): Promise<ListedRule[]> {
  const listed = (
    rule: EvaluationRule | StoredEvaluationRule,
    origin: RuleOrigin,
    ws: string | null,
  ) => ({
    workspace: ws,
    ...wireRule(rule, origin),
  });
  if (workspace !== undefined) {
    const own = new Map((await store.rules(workspace)).map((rule) => [rule.evaluator, rule]));
    return rulesInForce(app.rules, own.values()).map((rule) => {
      const stored = own.get(rule.evaluator);
      return stored ? listed(stored, 'workspace', workspace) : listed(rule, 'config', workspace);
    });
  }
  const rows = rulesInForce(app.rules, []).map((rule) => listed(rule, 'config', null));
  for (const ws of await store.workspaces()) {
    for (const rule of await store.rules(ws)) rows.push(listed(rule, 'workspace', ws));
  }
  return rows;
}

/**
 * The kinds a version judges: one declared in code, or a judge version recorded as data in the
 * workspace (tuned from reviewers' verdicts). Neither is a usage error.
 */
async function kindsJudged(
  store: Pick<EvaluationRecords, 'judgeVersions'>,
  app: AppDefinition,
  workspace: string,
  evaluator: string,
): Promise<readonly EvaluatedKind[]> {
  const kinds =
    app.evaluators.targetsOf(evaluator) ??
    (await store.judgeVersions.get(workspace, evaluator))?.targets;
  if (kinds !== undefined) return kinds;
  return usage(
    `evaluator ${evaluator} is not deployed: add it to the config file's evaluators first, or record it as a judge version in ${workspace} (evalflow judges tune)`,
  );
}

async function setRule(
  store: Commands & RuleReads,
  app: AppDefinition,
  workspace: string,
  evaluator: string,
  judges: readonly EvaluatedKind[],
  options: SetOptions,
) {
  // Flags not given keep what the rule in force says; a version in no rule starts from its kinds.
  const current = rulesInForce(app.rules, await store.rules(workspace)).find(
    (rule) => rule.evaluator === evaluator,
  );
  const artifactKinds = options.artifactKinds ?? current?.filter.artifact_kinds;
  const targets = [...(options.targets ?? current?.targets ?? judges)];
  // Kept from the rule in force only while the rule still judges threads.
  const idleFor = options.idleFor ?? (targets.includes('thread') ? current?.idle_for : undefined);
  const outcome = await store.execute({
    workspace_id: workspace,
    actor: CLI_ACTOR,
    command: {
      type: 'set_evaluation_rule',
      evaluator,
      targets,
      sample_rate: options.sampleRate ?? current?.sample_rate ?? 1,
      filter: {
        ...(current?.filter.workspaces ? { workspaces: current.filter.workspaces } : {}),
        ...(artifactKinds ? { artifact_kinds: artifactKinds } : {}),
      },
      enabled: !options.disable,
      mode: options.mode ?? (current ? modeOf(current) : 'live'),
      ...(idleFor === undefined ? {} : { idle_for: idleFor }),
    },
  });
  if (outcome.type !== 'recorded') usage(`${workspace}: ${outcome.message}`);
  const stored = (await store.rules(workspace)).find((rule) => rule.evaluator === evaluator);
  if (stored === undefined)
    throw new Error(`rule ${evaluator} was recorded but is not in the view`);
  return { workspace, seq: stored.seq, rule: wireRule(stored, 'workspace') };
}

function printRules(rules: readonly ListedRule[], out: Print): void {
  if (rules.length === 0) {
    out('no rules: every evaluator judges everything it can');
    return;
  }
  const lines = renderTable(
    [
      'workspace',
      'evaluator',
      'targets',
      'rate',
      'idle for',
      'enabled',
      'mode',
      'origin',
      'set by',
      'set at',
    ],
    rules.map((rule) => [
      rule.workspace ?? '(default)',
      rule.evaluator,
      rule.targets.join(','),
      rule.sampleRate,
      rule.idleFor,
      rule.enabled ? 'yes' : 'no',
      rule.mode,
      rule.origin,
      rule.setBy,
      rule.setAt,
    ]),
  );
  for (const line of lines) out(line);
}
