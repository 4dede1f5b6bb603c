import type { Actor } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import type { EvaluatorPromoted } from './events.js';
import { shortfallsOf } from './promotion-gate.js';
import { evidenceLine, type PromotionEvidence } from './promotions.js';
import { forbidden, invalidState, notFound, validationFailed } from './rejections.js';

/**
 * Only the system promotes, as only it sets rules. Both versions must be deployed, of one
 * feedback type, and the promoted one must judge its rule's target kinds. Evidence short of the
 * thresholds is refused with its figures, unless forced; then it is recorded as forced.
 */
export function promoteEvaluator(
  actor: Actor,
  command: CommandOf<'promote_evaluator'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'system') return forbidden('only the system promotes evaluator versions');
  const { evaluator, replacing, rule, replaced_rule, evidence } = command;
  const catalog = context.evaluators;
  const judges = catalog?.targetsOf(evaluator);
  if (judges === undefined) return notFound('evaluator', evaluator);
  const unjudged = rule.targets.filter((kind) => !judges.includes(kind));
  if (unjudged.length > 0) {
    return validationFailed(`${evaluator} judges ${judges.join(', ')}, not ${unjudged.join(', ')}`);
  }
  if (replacing !== null) {
    if (replacing === evaluator) return validationFailed(`${evaluator} cannot replace itself`);
    if (catalog?.targetsOf(replacing) === undefined) return notFound('evaluator', replacing);
    const type = catalog.feedbackTypeOf?.(evaluator);
    const replacedType = catalog.feedbackTypeOf?.(replacing);
    if (type !== replacedType) {
      return validationFailed(
        `${evaluator} gives ${type} feedback and ${replacing} gives ${replacedType}: a version replaces one of its own feedback type`,
      );
    }
  }
  if ((replacing === null) !== (replaced_rule === null)) {
    return validationFailed(
      replacing === null
        ? 'replaced_rule is the rule of the version replaced: give replacing too'
        : `replaced_rule is required: the rule ${replacing} keeps, disabled`,
    );
  }
  const shortfalls = shortfallsOf(evidence, command);
  if (shortfalls.length > 0 && !command.force) {
    return invalidState(
      `${evaluator} was not promoted: the evidence is short (${shortfalls.join('; ')}): ` +
        `${evidenceLine(evidence)} against ${evidence.against}${onHeldOut(evidence)}, as of seq ${evidence.as_of_seq}`,
    );
  }
  const sorted = (targets: readonly string[]) => [...new Set(targets)].sort();
  const event: EvaluatorPromoted = {
    type: 'evaluator_promoted',
    evaluator,
    replacing,
    rules: [
      { evaluator, ...rule, targets: sorted(rule.targets) as typeof rule.targets, enabled: true },
      ...(replacing !== null && replaced_rule !== null
        ? [
            {
              evaluator: replacing,
              ...replaced_rule,
              targets: sorted(replaced_rule.targets) as typeof replaced_rule.targets,
              enabled: false,
            },
          ]
        : []),
    ],
    min_kappa: command.min_kappa,
    min_matched: command.min_matched,
    evidence,
    shortfalls,
    forced: shortfalls.length > 0,
  };
  return recorded([event]);
}

/** Where a backtest's figures were read: ` on its 12 held-out targets`. */
const onHeldOut = ({ backtest }: PromotionEvidence): string =>
  backtest === undefined ? '' : ` on its ${backtest.held_out} held-out targets`;
