import { readFileSync } from 'node:fs';
import { HTTP_ONLY, HTTP_STATUS } from '../../src/api/errors.js';
import * as commands from '../../src/core/commands.js';
import {
  Actor,
  Command,
  CommandId,
  Duration,
  EvaluationRuleSchema,
  EvaluatorId,
  evaluationStates,
  Id,
  Json,
  MessageRole,
  participantOf,
  ReportedTime,
  ReviewQueueSchema,
  RoutingRule,
  RuleFilter,
  RunEndStatus,
  rejectionTypes,
  reviewSlotStates,
  ScoreSource,
  scoreStates,
  sourcesFor,
  Target,
  Text,
} from '../../src/core/index.js';
import { commentOf, fieldComments, moduleComment, typesOf } from './declarations.js';
import { code, table } from './markdown.js';
import { columns, permissions, rejectionExamples } from './permissions.js';
import { fieldsOf, type Names } from './zod-fields.js';

// The reference section of docs/commands.md: every command, event, actor, target, rule and
// rejection, written from src/core's zod schemas, types and comments, and from `decide` itself
// (who may send what). `npm run docs:core` writes it; test/docs/core-reference.test.ts fails
// when it is stale.

export const CORE_SECTION_START =
  '<!-- core-reference: written by `npm run docs:core` from src/core’s schemas and types -->';
export const CORE_SECTION_END = '<!-- /core-reference -->';

const core = (file: string) => `src/core/${file}`;

const names: Names = new Map<unknown, string>([
  [Id, '[id](limits.md#the-id-rule)'],
  [CommandId, '[command id](limits.md#the-id-rule)'],
  [Text, '[text](limits.md#text-and-json-values)'],
  [Json, '[JSON](limits.md#text-and-json-values)'],
  [Target, '[target](#targets)'],
  [EvaluatorId, '`name@version`'],
  [Duration, '[duration](limits.md#durations)'],
  [ReportedTime, '[reported time](specification.md#reported-times)'],
  [RuleFilter, '[rule filter](#rules)'],
  [RoutingRule, '[routing rule](#review-queues)'],
]);

const fieldTable = (schema: Parameters<typeof fieldsOf>[0], notes = new Map<string, string>()) =>
  table(
    ['field', 'type', 'required, or its default', 'notes'],
    fieldsOf(schema, names).map((field) => [
      code(field.name),
      field.type,
      field.presence,
      notes.get(field.name) ?? '',
    ]),
  );

/** The name `commands.ts` exports a command's schema under. */
function exportName(schema: unknown): string {
  const found = Object.entries(commands).find(([, value]) => value === schema);
  if (found === undefined) throw new Error('a command schema is not exported by name');
  return found[0];
}

function commandsSection(): string[] {
  const lines = ['### Commands', '', moduleComment(core('commands.ts')), ''];
  for (const schema of Command.options) {
    const name = exportName(schema);
    const comment = commentOf(core('commands.ts'), name);
    lines.push(`#### \`${schema.shape.type.value}\``, '');
    if (comment !== '') lines.push(comment, '');
    lines.push(...fieldTable(schema, fieldComments(core('commands.ts'), name)), '');
  }
  return lines;
}

function permissionsSection(): string[] {
  const found = permissions();
  const lines = [
    '### Who may send what',
    '',
    'Found by deciding each command, as each kind of actor, against a workspace where thread `t1` ' +
      'has run `r1` running, its assistant message and its artifact, and `t2` is another ' +
      'thread (✓ recorded, ✗ refused as `forbidden`). The HTTP API narrows this further: each ' +
      'key’s principal reaches only its own routes ([api.md](api.md)).',
    '',
    ...table(
      ['command', ...columns.map((column) => column.heading)],
      found.map(({ label, refusals }) => [
        label,
        ...refusals.map((refusal) => (refusal === null ? '✓' : '✗')),
      ]),
    ),
    '',
    'The refusals, as `decide` words them:',
    '',
  ];
  for (const { label, refusals } of found) {
    const messages = [...new Set(refusals.filter((r): r is string => r !== null))];
    if (messages.length > 0) lines.push(`- ${label}: ${messages.map((m) => `“${m}”`).join('; ')}`);
  }
  return [...lines, ''];
}

function actorsSection(): string[] {
  const lines = ['### Actors', '', moduleComment(core('actors.ts')), ''];
  const placeholders: Record<string, string> = {
    id: '{id}',
    thread_id: '{thread_id}',
    name: '{name}',
    version: '{version}',
  };
  lines.push(
    ...table(
      ['kind', 'participant id', 'score sources it records (the first is its default)'],
      Actor.options.map((schema) => {
        const kind = schema.shape.kind.value;
        const actor = {
          kind,
          ...Object.fromEntries(
            Object.keys(schema.shape)
              .filter((key) => key !== 'kind')
              .map((key) => [key, placeholders[key] ?? key]),
          ),
        } as Actor;
        return [code(kind), code(participantOf(actor)), sourcesFor(actor).map(code).join(', ')];
      }),
    ),
    '',
  );
  for (const schema of Actor.options) {
    lines.push(`#### \`${schema.shape.kind.value}\``, '', ...fieldTable(schema), '');
  }
  return lines;
}

function targetsSection(): string[] {
  const lines = ['### Targets', '', moduleComment(core('targets.ts')), ''];
  for (const schema of Target.options) {
    const kind = schema.shape.kind.value;
    const name = `${kind[0]?.toUpperCase()}${kind.slice(1)}Target`;
    const comment = commentOf(core('targets.ts'), name);
    lines.push(`#### \`${kind}\``, '');
    if (comment !== '') lines.push(comment, '');
    lines.push(...fieldTable(schema), '');
  }
  return lines;
}

function rulesSection(): string[] {
  return [
    '### Rules',
    '',
    moduleComment(core('rules.ts')),
    '',
    ...fieldTable(EvaluationRuleSchema, fieldComments(core('rules.ts'), 'RuleSettings')),
    '',
    `A rule filter: ${commentOf(core('rules.ts'), 'RuleFilter')}`,
    '',
    ...fieldTable(RuleFilter),
    '',
  ];
}

function reviewQueuesSection(): string[] {
  const lines = [
    '### Review queues',
    '',
    moduleComment(core('review-queues.ts')),
    '',
    ...fieldTable(
      ReviewQueueSchema,
      fieldComments(core('review-queues.ts'), 'ReviewQueueSettings'),
    ),
    '',
    `A routing rule: ${commentOf(core('review-queues.ts'), 'RoutingRule')}`,
    '',
  ];
  const comments = routingComments();
  for (const schema of RoutingRule.options) {
    const kind = schema.shape.kind.value;
    lines.push(`#### \`${kind}\``, '');
    const comment = comments.get(kind);
    if (comment) lines.push(comment, '');
    lines.push(...fieldTable(schema), '');
  }
  return lines;
}

/** Each routing rule's doc comment, by kind, as written above its member of the union. */
function routingComments(): Map<string, string> {
  const text = readFileSync(core('review-queues.ts'), 'utf8');
  const found = new Map<string, string>();
  for (const match of text.matchAll(
    /\/\*\* ([^*]+?) \*\/\s*z\.strictObject\(\{\s*kind: z\.literal\('(\w+)'\)/g,
  )) {
    found.set(match[2] as string, (match[1] as string).replace(/\s+/g, ' '));
  }
  return found;
}

function eventsSection(types: ReturnType<typeof typesOf>): string[] {
  const members = (list: { name: string; type: string; optional: boolean; comment: string }[]) =>
    table(
      ['field', 'type', 'notes'],
      list.map((m) => [code(`${m.name}${m.optional ? '?' : ''}`), code(m.type), m.comment]),
    );
  const lines = [
    '### Events',
    '',
    moduleComment(core('events.ts')),
    '',
    `#### The envelope`,
    '',
    commentOf(core('events.ts'), 'Envelope'),
    '',
    ...members(types.members(core('events.ts'), 'Envelope').filter((m) => m.name !== 'event')),
    `| \`event\` | one of the events below | |`,
    '',
  ];
  for (const event of types.unionMembers(core('events.ts'), 'Event')) {
    const type = event.members.find((m) => m.name === 'type')?.type.replaceAll('"', '');
    lines.push(`#### \`${type}\``, '');
    if (event.comment !== '') lines.push(event.comment, '');
    lines.push(...members(event.members.filter((m) => m.name !== 'type')), '');
  }
  return lines;
}

function rejectionsSection(types: ReturnType<typeof typesOf>): string[] {
  const examples = rejectionExamples();
  if (examples.map((e) => e.type).join() !== rejectionTypes.join()) {
    throw new Error('the rejection examples do not cover each rejection type once, in order');
  }
  const shapes = types.unionMembers(core('rejections.ts'), 'Rejection');
  return [
    '### Rejections',
    '',
    moduleComment(core('rejections.ts')),
    'Over HTTP each is the answer’s body, with the status shown.',
    '',
    ...table(
      ['type', 'fields', 'HTTP status', 'for example'],
      rejectionTypes.map((type, i) => {
        const shape = shapes.find((s) => s.members.some((m) => m.type === `"${type}"`));
        const { errors: _errors, ...example } = examples[i] as Record<string, unknown>;
        return [
          code(type),
          (shape?.members ?? [])
            .filter((m) => m.name !== 'type')
            .map((m) => code(`${m.name}: ${m.type}`))
            .join(', '),
          String(HTTP_STATUS[type]),
          code(JSON.stringify(example)),
        ];
      }),
    ),
    '',
    `Refusals only HTTP has carry \`type\` and \`message\`: ${Object.entries(HTTP_ONLY)
      .map(([type, status]) => `${code(type)} (${status})`)
      .join(', ')}.`,
    '',
  ];
}

function wordsSection(): string[] {
  const list = (values: readonly string[]) => values.map(code).join(', ');
  return [
    '### Other words',
    '',
    ...table(
      ['word', 'values'],
      [
        ['run status', list(['running', 'paused', ...RunEndStatus.options])],
        ['message role', list(MessageRole.options)],
        ['score source', list(ScoreSource.options)],
        ['evaluation state (ledger)', list(evaluationStates)],
        ['score state (ledger)', list(scoreStates)],
        ['review slot state', list(reviewSlotStates)],
      ],
    ),
    '',
  ];
}

export function coreReference(): string {
  const types = typesOf([core('events.ts'), core('rejections.ts')]);
  types.name(core('targets.ts'), 'Target', 'Target');
  types.name(core('actors.ts'), 'Actor', 'Actor');
  types.name(core('review-queues.ts'), 'RoutingRule', 'RoutingRule');
  const lines = [
    '## Commands, events, actors and rejections',
    '',
    'What `store.execute` takes and the log holds, in the core’s wire names (snake_case; the ' +
      'HTTP API’s bodies are camelCase, see [api.md](api.md)). Every field, type and default ' +
      'below is read from the zod schemas and types in `src/core`, and who may send what from ' +
      '`decide` itself.',
    '',
    ...commandsSection(),
    ...permissionsSection(),
    ...actorsSection(),
    ...targetsSection(),
    ...rulesSection(),
    ...reviewQueuesSection(),
    ...eventsSection(types),
    ...rejectionsSection(types),
    ...wordsSection(),
  ];
  return `${lines.join('\n').trimEnd()}\n`.replace(/\n{3,}/g, '\n\n');
}
