// Feedback types' declarations, written once and generated both as zod schemas (for evalflow)
// and as pydantic models' source (for the seeds' evalr), so the two libraries map the same types.
// Each kind is declared so that both libraries score it alike (or both skip it).
import { z } from 'zod';

/** A scalar field may be left out (`optional`) or given as null (`nullable`). */
export type Presence = 'required' | 'optional' | 'nullable';

export type StringFormat = 'email' | 'uuid' | 'datetime' | 'date';

export type FieldDeclaration =
  | { name: string; kind: 'rating'; min: number; max: number; description: string }
  | { name: string; kind: 'flag'; presence?: Presence }
  | { name: string; kind: 'choice'; choices: readonly string[]; default: string }
  | { name: string; kind: 'note' }
  | { name: string; kind: 'tags' }
  /** A fraction between 0 and 1. */
  | { name: string; kind: 'score'; presence?: Presence }
  /** An enum: a StrEnum in Python. */
  | { name: string; kind: 'category'; choices: readonly string[]; presence?: Presence }
  /** A union of single literals, which neither library scores. */
  | { name: string; kind: 'literals'; choices: readonly string[] }
  | { name: string; kind: 'formatted'; format: StringFormat }
  /** A nested object, or an array of them (`many`), which neither library scores. */
  | { name: string; kind: 'nested'; many: boolean }
  | { name: string; kind: 'count'; default: number }
  /** Refinements: an even integer, a text that is not blank. */
  | { name: string; kind: 'even' }
  | { name: string; kind: 'text'; presence?: Presence }
  /** Transforms: a trimmed text (zod's overwrite), a lower-cased one (a transform piped to a string). */
  | { name: string; kind: 'trimmed' }
  | { name: string; kind: 'lowered' };

export type FieldKind = FieldDeclaration['kind'];

export interface TypeDeclaration {
  className: string;
  fields: readonly FieldDeclaration[];
}

export function zodSchemaOf(declaration: TypeDeclaration) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of declaration.fields) {
    shape[field.name] = zodFieldOf(field);
  }
  return z.strictObject(shape);
}

const isEven = (n: number) => n % 2 === 0;
const isNotBlank = (text: string) => text.trim() !== '';

function zodFieldOf(field: FieldDeclaration): z.ZodType {
  switch (field.kind) {
    case 'rating':
      return z.int().min(field.min).max(field.max).describe(field.description);
    case 'flag':
      return withPresence(z.boolean(), field.presence);
    case 'choice':
      return z.enum(field.choices as [string, ...string[]]).default(field.default);
    case 'note':
      return z.string().nullable().default(null);
    case 'tags':
      return z.array(z.string()).default([]);
    case 'score':
      return withPresence(z.number().gte(0).lte(1), field.presence);
    case 'category':
      return withPresence(z.enum(field.choices as [string, ...string[]]), field.presence);
    case 'literals':
      return z.union(field.choices.map((choice) => z.literal(choice)));
    case 'formatted':
      return zodFormatOf(field.format);
    case 'nested': {
      const item = z.strictObject({ label: z.string(), weight: z.number() });
      return field.many ? z.array(item) : item;
    }
    case 'count':
      return z.int().min(0).default(field.default);
    case 'even':
      return z.int().refine(isEven, 'an even number');
    case 'text':
      return withPresence(z.string().refine(isNotBlank, 'not blank'), field.presence);
    case 'trimmed':
      return z.string().trim();
    case 'lowered':
      return z
        .string()
        .transform((text) => text.toLowerCase())
        .pipe(z.string());
  }
}

function zodFormatOf(format: StringFormat): z.ZodType {
  switch (format) {
    case 'email':
      return z.email();
    case 'uuid':
      return z.uuid();
    case 'datetime':
      return z.iso.datetime();
    case 'date':
      return z.iso.date();
  }
}

function withPresence(schema: z.ZodType, presence: Presence = 'required'): z.ZodType {
  if (presence === 'optional') return schema.optional();
  return presence === 'nullable' ? schema.nullable() : schema;
}

/** One module defining a pydantic model per declaration, each named by its `className`. */
export function pydanticSourceOf(declarations: readonly TypeDeclaration[]): string {
  const lines = [
    'import re',
    'from datetime import date, datetime',
    'from enum import StrEnum',
    'from typing import Annotated, Literal, NewType',
    'from uuid import UUID',
    'from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints',
    '',
    '# Not a str to evalr, as EmailStr is not (which needs email-validator, not installed).',
    'Email = NewType("Email", str)',
    '',
    'def _email(text):',
    '    if re.fullmatch(r"[^@\\s]+@[^@\\s]+\\.[^@\\s]+", text) is None:',
    '        raise ValueError("not an email")',
    '    return text',
    '',
    'def _even(n):',
    '    if n % 2 != 0:',
    '        raise ValueError("an even number")',
    '    return n',
    '',
    'def _not_blank(text):',
    '    if text.strip() == "":',
    '        raise ValueError("not blank")',
    '    return text',
    '',
    'class Item(BaseModel):',
    '    model_config = ConfigDict(extra="forbid")',
    '    label: str',
    '    weight: float',
  ];
  for (const declaration of declarations) lines.push('', ...pydanticModelOf(declaration));
  return `${lines.join('\n')}\n`;
}

function pydanticModelOf(declaration: TypeDeclaration): string[] {
  const enums: string[] = [];
  const fields: string[] = [];
  for (const field of declaration.fields) {
    if (field.kind === 'category') {
      const name = enumClassName(declaration, field);
      enums.push(`class ${name}(StrEnum):`);
      enums.push(...field.choices.map((choice, i) => `    M${i} = ${JSON.stringify(choice)}`));
      enums.push('');
    }
    fields.push(`    ${pydanticFieldOf(declaration, field)}`);
  }
  return [
    ...enums,
    `class ${declaration.className}(BaseModel):`,
    '    model_config = ConfigDict(extra="forbid")',
    ...fields,
  ];
}

const enumClassName = (declaration: TypeDeclaration, field: FieldDeclaration) =>
  `${declaration.className}_${field.name}`;

function pydanticFieldOf(declaration: TypeDeclaration, field: FieldDeclaration): string {
  const text = JSON.stringify;
  const annotated = (type: string, presence?: Presence) =>
    `${field.name}: ${pydanticPresence(type, presence)}`;
  switch (field.kind) {
    case 'rating':
      return `${field.name}: Annotated[int, Field(ge=${field.min}, le=${field.max}, description=${text(field.description)})]`;
    case 'flag':
      return annotated('bool', field.presence);
    case 'choice':
      return `${field.name}: Literal[${field.choices.map((c) => text(c)).join(', ')}] = ${text(field.default)}`;
    case 'note':
      return `${field.name}: str | None = None`;
    case 'tags':
      return `${field.name}: list[str] = Field(default_factory=list)`;
    case 'score':
      return annotated('Annotated[float, Field(ge=0, le=1)]', field.presence);
    case 'category':
      return annotated(enumClassName(declaration, field), field.presence);
    case 'literals':
      return `${field.name}: ${field.choices.map((c) => `Literal[${text(c)}]`).join(' | ')}`;
    case 'formatted':
      return `${field.name}: ${PYTHON_FORMATS[field.format]}`;
    case 'nested':
      return `${field.name}: ${field.many ? 'list[Item]' : 'Item'}`;
    case 'count':
      return `${field.name}: Annotated[int, Field(ge=0)] = ${field.default}`;
    case 'even':
      return `${field.name}: Annotated[int, AfterValidator(_even)]`;
    case 'text':
      return annotated('Annotated[str, AfterValidator(_not_blank)]', field.presence);
    case 'trimmed':
      return `${field.name}: Annotated[str, StringConstraints(strip_whitespace=True)]`;
    case 'lowered':
      return `${field.name}: Annotated[str, AfterValidator(str.lower)]`;
  }
}

const PYTHON_FORMATS: Record<StringFormat, string> = {
  email: 'Annotated[Email, AfterValidator(_email)]',
  uuid: 'UUID',
  datetime: 'datetime',
  date: 'date',
};

function pydanticPresence(type: string, presence: Presence = 'required'): string {
  if (presence === 'optional') return `${type} | None = None`;
  return presence === 'nullable' ? `${type} | None` : type;
}
