// The mixed workload of `npm run bench:scores`: many feedback types of every declaration kind,
// each used 1–50 times, their values interleaved as an app with many feedback types records them.
// Seeded, so every run measures the same declarations and values.
import type { z } from 'zod';
import type { FieldDeclaration, FieldKind, TypeDeclaration } from './score-declarations.js';
import { zodSchemaOf } from './score-declarations.js';
import { generator } from './seeded-random.js';

/** One value to map: its type's schema, the scores' type name, and the value as stored. */
export interface MixedItem {
  readonly declaration: TypeDeclaration;
  readonly schema: z.ZodType;
  readonly typeName: string;
  readonly value: unknown;
}

const KINDS: readonly FieldKind[] = [
  'rating',
  'flag',
  'choice',
  'note',
  'tags',
  'score',
  'category',
  'literals',
  'formatted',
  'nested',
  'count',
  'even',
  'text',
  'trimmed',
  'lowered',
];
const WORDS = ['good', 'bad', 'unsure', 'partly', 'off_topic', 'wrong', 'great', 'late'];

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const between = (random: Random, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));

/** `count` declarations, each used 1–50 times, and their values in a seeded shuffled order. */
export function mixedWorkload(count: number, seed = 7): MixedItem[] {
  const random = generator(seed);
  const items: MixedItem[] = [];
  for (let i = 0; i < count; i++) {
    const declaration = declarationOf(random, i);
    const schema = zodSchemaOf(declaration);
    const typeName = `feedback_${i}`;
    const uses = between(random, 1, 50);
    for (let use = 0; use < uses; use++) {
      const raw = rawValueOf(random, declaration);
      const value = JSON.parse(JSON.stringify(schema.parse(raw)));
      items.push({ declaration, schema, typeName, value });
    }
  }
  // Fisher–Yates: one type's values are not all in a row.
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as MixedItem, items[i] as MixedItem];
  }
  return items;
}

function declarationOf(random: Random, index: number): TypeDeclaration {
  const fields: FieldDeclaration[] = [];
  const size = between(random, 3, 10);
  for (let i = 0; i < size; i++) fields.push(fieldOf(random, pick(random, KINDS), `f${i}`));
  return { className: `Feedback${index}`, fields };
}

function fieldOf(random: Random, kind: FieldKind, name: string): FieldDeclaration {
  const presence = pick(random, ['required', 'required', 'optional', 'nullable'] as const);
  const choices = () => WORDS.slice(0, between(random, 2, WORDS.length));
  switch (kind) {
    case 'rating':
      return { name, kind, min: 1, max: between(random, 3, 10), description: `${name} rating` };
    case 'choice': {
      const options = choices();
      return { name, kind, choices: options, default: pick(random, options) };
    }
    case 'category':
      return { name, kind, choices: choices(), presence };
    case 'literals':
      return { name, kind, choices: choices() };
    case 'formatted':
      return { name, kind, format: pick(random, ['email', 'uuid', 'datetime', 'date'] as const) };
    case 'nested':
      return { name, kind, many: random() < 0.5 };
    case 'count':
      return { name, kind, default: between(random, 0, 3) };
    case 'flag':
    case 'score':
    case 'text':
      return { name, kind, presence };
    default:
      return { name, kind };
  }
}

function rawValueOf(random: Random, declaration: TypeDeclaration): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of declaration.fields) {
    const presence = 'presence' in field ? field.presence : 'required';
    if (presence !== 'required' && random() < 0.3) {
      if (presence === 'nullable') value[field.name] = null;
      continue;
    }
    const raw = rawFieldOf(random, field);
    if (raw !== undefined) value[field.name] = raw;
  }
  return value;
}

/** A valid value of the field as an app sends it; undefined leaves a field with a default out. */
function rawFieldOf(random: Random, field: FieldDeclaration): unknown {
  const hex = (length: number) =>
    Array.from({ length }, () => pick(random, [...'0123456789abcdef'])).join('');
  const text = () => `${pick(random, WORDS)} ${'x'.repeat(between(random, 0, 60))}`;
  switch (field.kind) {
    case 'rating':
      return between(random, field.min, field.max);
    case 'flag':
      return random() < 0.5;
    case 'choice':
    case 'count':
    case 'tags':
    case 'note':
      return random() < 0.4 ? undefined : defaultedFieldOf(random, field, text);
    case 'score':
      return Math.round(random() * 1000) / 1000;
    case 'category':
    case 'literals':
      return pick(random, field.choices);
    case 'formatted':
      switch (field.format) {
        case 'email':
          return `user${between(random, 1, 999)}@example.com`;
        case 'uuid':
          return `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(random, ['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
        case 'datetime':
          return `2026-0${between(random, 1, 9)}-1${between(random, 0, 9)}T12:0${between(random, 0, 9)}:00Z`;
        case 'date':
          return `2026-0${between(random, 1, 9)}-2${between(random, 0, 8)}`;
      }
      break;
    case 'nested': {
      const item = () => ({ label: pick(random, WORDS), weight: between(random, 0, 100) / 10 });
      return field.many ? Array.from({ length: between(random, 0, 4) }, item) : item();
    }
    case 'even':
      return 2 * between(random, -50, 50);
    case 'text':
      return text();
    case 'trimmed':
      return `  ${text()} `;
    case 'lowered':
      return text().toUpperCase();
  }
  return undefined;
}

function defaultedFieldOf(
  random: Random,
  field: Extract<FieldDeclaration, { kind: 'choice' | 'count' | 'tags' | 'note' }>,
  text: () => string,
): unknown {
  switch (field.kind) {
    case 'choice':
      return pick(random, field.choices);
    case 'count':
      return between(random, 0, 20);
    case 'tags':
      return Array.from({ length: between(random, 0, 3) }, () => pick(random, WORDS));
    case 'note':
      return random() < 0.3 ? null : text();
  }
}
