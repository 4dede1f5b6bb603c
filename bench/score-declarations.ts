// One feedback type's declaration, written once and generated both as a zod schema (for
// evalflow) and as a pydantic model's source (for the seeds' evalr), so the two libraries map
// the same type.
import { z } from 'zod';

export type FieldDeclaration =
  | { name: string; kind: 'rating'; min: number; max: number; description: string }
  | { name: string; kind: 'flag' }
  | { name: string; kind: 'choice'; choices: readonly string[]; default: string }
  | { name: string; kind: 'note' }
  | { name: string; kind: 'tags' };

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

function zodFieldOf(field: FieldDeclaration): z.ZodType {
  switch (field.kind) {
    case 'rating':
      return z.int().min(field.min).max(field.max).describe(field.description);
    case 'flag':
      return z.boolean();
    case 'choice':
      return z.enum(field.choices as [string, ...string[]]).default(field.default);
    case 'note':
      return z.string().nullable().default(null);
    case 'tags':
      return z.array(z.string()).default([]);
  }
}

export function pydanticSourceOf(declaration: TypeDeclaration): string {
  const lines = [
    'from typing import Annotated, Literal',
    'from pydantic import BaseModel, ConfigDict, Field',
    '',
    `class ${declaration.className}(BaseModel):`,
    '    model_config = ConfigDict(extra="forbid")',
  ];
  for (const field of declaration.fields) lines.push(`    ${pydanticFieldOf(field)}`);
  return `${lines.join('\n')}\n`;
}

function pydanticFieldOf(field: FieldDeclaration): string {
  const text = JSON.stringify;
  switch (field.kind) {
    case 'rating':
      return `${field.name}: Annotated[int, Field(ge=${field.min}, le=${field.max}, description=${text(field.description)})]`;
    case 'flag':
      return `${field.name}: bool`;
    case 'choice':
      return `${field.name}: Literal[${field.choices.map((c) => text(c)).join(', ')}] = ${text(field.default)}`;
    case 'note':
      return `${field.name}: str | None = None`;
    case 'tags':
      return `${field.name}: list[str] = Field(default_factory=list)`;
  }
}
