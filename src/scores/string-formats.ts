// Which zod strings are plain text (docs/specification.md#data-types), and which carry a format.
import type { z } from 'zod';

/**
 * String checks that constrain a plain string, as `Field(pattern=, min_length=)` constrains a
 * `str`. zod files them under `string_format` too, beside the real formats.
 */
const CONSTRAINT_FORMATS: ReadonlySet<string> = new Set([
  'regex',
  'lowercase',
  'uppercase',
  'includes',
  'starts_with',
  'ends_with',
]);

/**
 * A string with no format. evalr scores only a plain `str` as text; `UUID`, `date`, `datetime`,
 * `EmailStr` and `HttpUrl` are other types to them. Their zod counterparts are the string formats:
 * `z.uuid()`, `z.email()`, `z.iso.datetime()` and the rest carry `def.format`, and the older
 * `z.string().email()` adds the format as a check. Any format that is not a constraint above,
 * custom ones (`z.stringFormat`) and ones added to zod later included, makes the string skipped.
 */
export function isPlainString(def: z.core.$ZodStringDef): boolean {
  if (formatOf(def) !== undefined) return false;
  for (const check of def.checks ?? []) {
    const format = formatOf(check._zod.def);
    if (format !== undefined && !CONSTRAINT_FORMATS.has(format)) return false;
  }
  return true;
}

/** A string format's name: on a format schema's def (`$ZodStringFormatDef`) or a check's. */
function formatOf(def: object): string | undefined {
  const format = (def as { format?: unknown }).format;
  return typeof format === 'string' ? format : undefined;
}
