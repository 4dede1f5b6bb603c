// The Langfuse OpenAPI spec, compiled once per process for openapi-backend. `langfuse-openapi.yml`
// beside this file is a copy of langfuse/langfuse `web/public/generated/api/openapi.yml`, kept in
// the repository so the tests do not depend on a checkout next to it. The generated spec needs
// normalizing first: over a hundred YAML aliases, `nullable` without a `type`, and sibling keys
// beside `$ref`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ajvFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(new URL('./langfuse-openapi.yml', import.meta.url));

let compiled: Promise<OpenAPIBackend> | undefined;

/** The compiled spec; parsed (~0.5 s) and compiled on first use, then shared. */
export function langfuseSpec(): Promise<OpenAPIBackend> {
  compiled ??= compile();
  return compiled;
}

async function compile(): Promise<OpenAPIBackend> {
  const document = parse(await readFile(SPEC_PATH, 'utf8'), { maxAliasCount: -1 });
  const api = new OpenAPIBackend({
    definition: normalized(document) as never,
    quick: true,
    coerceTypes: true,
    customizeAjv: (ajv) => {
      // ajv-formats is CommonJS; under NodeNext its plugin is the `default` export.
      ajvFormats.default(ajv);
      return ajv;
    },
  });
  await api.init();
  return api;
}

/** A copy without `nullable` where there is no `type`, and with `$ref` alone where it appears. */
function normalized(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalized);
  if (typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  if ('$ref' in record) return { $ref: record.$ref };
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) copy[key] = normalized(value);
  if ('nullable' in copy && !('type' in copy)) delete copy.nullable;
  return copy;
}
