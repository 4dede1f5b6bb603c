import type { Actor } from './actors.js';
import type { CommandOf } from './commands.js';
import { type DecideContext, type Decision, recorded } from './decision.js';
import { forbidden, notFound, validationFailed } from './rejections.js';
import { idleForProblem } from './rules.js';

/**
 * Only the system sets rules. The rule must name a deployed evaluator version and only target
 * kinds it judges; a rule is data, so a mistake is refused here rather than found at a run's end.
 */
export function setEvaluationRule(
  actor: Actor,
  command: CommandOf<'set_evaluation_rule'>,
  context: DecideContext,
): Decision {
  if (actor.kind !== 'system') return forbidden('only the system sets evaluation rules');
  const judges = context.evaluators?.targetsOf(command.evaluator);
  if (judges === undefined) return notFound('evaluator', command.evaluator);
  const unjudged = command.targets.filter((kind) => !judges.includes(kind));
  if (unjudged.length > 0) {
    return validationFailed(
      `${command.evaluator} judges ${judges.join(', ')}, not ${unjudged.join(', ')}`,
    );
  }
  const idleFor = idleForProblem(command);
  if (idleFor !== null) return validationFailed(`${command.evaluator}: ${idleFor}`);
  const { evaluator, targets, sample_rate, filter, enabled, mode, idle_for } = command;
  return recorded([
    {
      type: 'evaluation_rule_set',
      evaluator,
      targets: [...new Set(targets)].sort(),
      sample_rate,
      filter,
      enabled,
      // Live is the default, so only a shadow rule records its mode.
      ...(mode === 'shadow' ? { mode } : {}),
      // Left out when not set, so rules recorded before threads were judged read the same.
      ...(idle_for === undefined ? {} : { idle_for }),
    },
  ]);
}
