import type { ApiScoreConfig } from '../client/index.js';

// The review form, built from the HUMAN feedback type's score configs (one config per field,
// named `{type}.{field}`): a NUMERIC field is a number within its bounds, a BOOLEAN yes or no, a
// CATEGORICAL one of its categories, a TEXT free text. A draft is checked here as the API checks
// a value against the configs before anything is sent; what only the feedback type's schema
// knows (an integer, a text's length) the API still refuses, and the page shows that refusal.

export type FieldKind = NonNullable<ApiScoreConfig['dataType']>;

export interface FormField {
  /** The value's key: the config's name after `{type}.`. */
  name: string;
  /** The config it is validated against (`{type}.{field}`). */
  configId: string;
  kind: FieldKind;
  /** What the form calls it: its config's description (the schema's `.describe`), else its name. */
  label: string;
  /** The choices a key 1–9 picks: categories, or yes and no; empty for NUMERIC and TEXT. */
  options: string[];
  min: number | null;
  max: number | null;
}

/** What the reviewer has entered so far, by field name, as entered (a number is its text). */
export type Draft = Record<string, string | boolean | undefined>;

export type Checked =
  | { ok: true; value: Record<string, string | number | boolean> }
  | { ok: false; errors: Record<string, string> };

export const YES_NO = ['yes', 'no'] as const;

/** The form's fields, in the configs' order; archived and typeless configs take no value. */
export function formFields(feedbackType: string, configs: readonly ApiScoreConfig[]): FormField[] {
  const prefix = `${feedbackType}.`;
  return configs
    .filter((config) => !config.isArchived && config.dataType !== null)
    .filter((config) => config.configId.startsWith(prefix))
    .map((config) => {
      const kind = config.dataType as FieldKind;
      return {
        name: config.configId.slice(prefix.length),
        configId: config.configId,
        kind,
        label: config.description?.trim() || config.configId.slice(prefix.length),
        options:
          kind === 'CATEGORICAL' ? [...config.categories] : kind === 'BOOLEAN' ? [...YES_NO] : [],
        min: config.minValue,
        max: config.maxValue,
      };
    });
}

/** A draft from a value the reviewer sent before (to revise it). */
export function draftOf(fields: readonly FormField[], value: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    const given = value[field.name];
    if (given === undefined || given === null) continue;
    draft[field.name] = field.kind === 'BOOLEAN' ? given === true : String(given);
  }
  return draft;
}

/** The draft as the value to send, or what is wrong with each field. */
export function checkDraft(fields: readonly FormField[], draft: Draft): Checked {
  const value: Record<string, string | number | boolean> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const entered = draft[field.name];
    const problem = checkField(field, entered);
    if (problem !== null) {
      errors[field.name] = problem;
      continue;
    }
    if (field.kind === 'NUMERIC') value[field.name] = Number(entered);
    else if (field.kind === 'BOOLEAN') value[field.name] = entered === true;
    else value[field.name] = typeof entered === 'string' ? entered : '';
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}

function checkField(field: FormField, entered: string | boolean | undefined): string | null {
  switch (field.kind) {
    case 'NUMERIC': {
      const text = typeof entered === 'string' ? entered.trim() : '';
      if (text === '') return 'enter a number';
      const number = Number(text);
      if (!Number.isFinite(number)) return `${text} is not a number`;
      if (field.min !== null && number < field.min) return `at least ${field.min}`;
      if (field.max !== null && number > field.max) return `at most ${field.max}`;
      return null;
    }
    case 'BOOLEAN':
      return typeof entered === 'boolean' ? null : 'choose yes or no';
    case 'CATEGORICAL':
      return typeof entered === 'string' && field.options.includes(entered)
        ? null
        : `choose one of ${field.options.join(', ')}`;
    case 'TEXT':
      return null;
  }
}

/** The draft with option `index` (0-based) of a field picked, or unchanged when it has none. */
export function pick(draft: Draft, field: FormField, index: number): Draft {
  const option = field.options[index];
  if (option === undefined) return draft;
  return { ...draft, [field.name]: field.kind === 'BOOLEAN' ? option === 'yes' : option };
}

/** Which option of a field the draft holds (0-based), or -1. */
export function pickedIndex(draft: Draft, field: FormField): number {
  const entered = draft[field.name];
  if (field.kind === 'BOOLEAN') return entered === undefined ? -1 : entered === true ? 0 : 1;
  return typeof entered === 'string' ? field.options.indexOf(entered) : -1;
}
