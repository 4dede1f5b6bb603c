import type { Actor } from './actors.js';
import type { CommandOf } from './commands.js';
import { type Decision, recorded } from './decision.js';
import { withArticle } from './ids.js';
import { forbidden, validationFailed } from './rejections.js';
import { sourcesFor } from './sources.js';

/**
 * A direct score, as the actor: its source must be one the actor's kind records (a harness's
 * HARNESS, a reviewer's HUMAN), and HUMAN names the score config it is validated against.
 */
export function recordScore(actor: Actor, command: CommandOf<'record_score'>): Decision {
  const allowed = sourcesFor(actor);
  if (!allowed.includes(command.source)) {
    return forbidden(
      `${withArticle(actor.kind)} records ${allowed.join(' or ')} scores, not ${command.source}`,
    );
  }
  if (command.source === 'HUMAN' && command.config_id === undefined) {
    return validationFailed('a HUMAN score names its score config (config_id)');
  }
  return recorded([
    {
      type: 'score_recorded',
      trace_id: command.trace_id,
      name: command.name,
      value: command.value,
      source: command.source,
      config_id: command.config_id ?? null,
      source_label: command.source_label ?? null,
      comment: command.comment ?? null,
    },
  ]);
}
