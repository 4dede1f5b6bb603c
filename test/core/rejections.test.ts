import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { summaryOf } from '../../src/core/index.js';
import { issueLine, specificIssue } from '../../src/core/rejections.js';

// Every zod error evalflow reports is written by these: a field as a JavaScript path, then the
// message, so a reader can find the field in what they sent.

const said = 'is a name';
const name = z.string({ error: said });
const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error;
};
/** The first issue `schema` finds in `value`. */
const firstIssue = (schema: z.ZodType, value: unknown) => {
  const [issue] = issuesOf(schema, value).issues;
  if (issue === undefined) throw new Error('expected an issue');
  return issue;
};

describe('issueLine', () => {
  it('names a field as a path: keys joined by dots, list positions in brackets', () => {
    const schema = z.object({ rules: z.array(z.object({ evaluator: name })) });
    const issue = firstIssue(schema, { rules: [{ evaluator: 'a' }, { evaluator: 1 }] });
    expect(issueLine(issue)).toBe(`rules[1].evaluator: ${said}`);
  });

  it('starts a path with a key or a position, never with a dot', () => {
    expect(issueLine(firstIssue(z.object({ evaluator: name }), {}))).toBe(`evaluator: ${said}`);
    expect(issueLine(firstIssue(z.array(name), ['a', 2]))).toBe(`[1]: ${said}`);
    expect(issueLine(firstIssue(z.array(z.array(name)), [[1]]))).toBe(`[0][0]: ${said}`);
  });

  it('gives an issue of the whole value its message alone, or after the whole’s name', () => {
    const issue = firstIssue(name, 1);
    expect(issueLine(issue)).toBe(said);
    expect(issueLine(issue, 'config')).toBe(`config: ${said}`);
    // A field's own path wins over the whole's name.
    const field = firstIssue(z.object({ evaluator: name }), {});
    expect(issueLine(field, 'config')).toBe(`evaluator: ${said}`);
  });
});

describe('specificIssue: a union as what its options expected', () => {
  it('says what each option expected when none got past the value itself', () => {
    const either = z.object({ type: z.union([z.string(), z.literal(7)]) });
    expect(issueLine(specificIssue(firstIssue(either, { type: false })))).toBe(
      'type: Invalid input: expected string, received boolean, or Invalid input: expected 7',
    );
  });

  it('gives the issue of the option that got deepest, with its whole path', () => {
    const rule = z.union([
      z.string(),
      z.object({ evaluator: name, targets: z.array(z.enum(['message', 'turn'])) }),
    ]);
    const issue = firstIssue(z.object({ rules: z.array(rule) }), {
      rules: [{ evaluator: 'a', targets: ['run'] }],
    });
    expect(issueLine(issue)).toBe('rules[0]: Invalid input');
    expect(issueLine(specificIssue(issue))).toBe(
      'rules[0].targets[0]: Invalid option: expected one of "message"|"turn"',
    );
  });

  it('names the whole when the union is the whole value', () => {
    expect(issueLine(specificIssue(firstIssue(z.union([name, z.number()]), true)), 'config')).toBe(
      `config: ${said}, or Invalid input: expected number, received boolean`,
    );
  });
});

describe('summaryOf', () => {
  const four = issuesOf(z.tuple([name, name, name, name]), [1, 2, 3, 4]);

  it('joins the first three issues and counts the rest', () => {
    expect(summaryOf(four)).toBe(`[0]: ${said}; [1]: ${said}; [2]: ${said} (and 1 more)`);
  });

  it('shows as many as asked, and names the whole', () => {
    expect(summaryOf(four, 4)).toBe(`[0]: ${said}; [1]: ${said}; [2]: ${said}; [3]: ${said}`);
    expect(summaryOf(issuesOf(name, 1), 3, 'config')).toBe(`config: ${said}`);
  });
});
