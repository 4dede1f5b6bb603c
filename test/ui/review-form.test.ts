import { describe, expect, it } from 'vitest';
import type { ApiScoreConfig } from '../../src/client/index.js';
import { checkDraft, draftOf, formFields, pick, pickedIndex } from '../../src/ui/review-form.js';

// The review form built from a HUMAN type's score configs, as GET /v1/score-configs gives them.

const config = (name: string, fields: Partial<ApiScoreConfig>): ApiScoreConfig => ({
  configId: name,
  name,
  isArchived: false,
  dataType: 'TEXT',
  minValue: null,
  maxValue: null,
  categories: [],
  description: null,
  ...fields,
});

const configs = [
  config('grade.verdict', { dataType: 'CATEGORICAL', categories: ['pass', 'fail', 'unsure'] }),
  config('grade.stars', { dataType: 'NUMERIC', minValue: 1, maxValue: 5, description: 'how good' }),
  config('grade.safe', { dataType: 'BOOLEAN' }),
  config('grade.note', { dataType: 'TEXT' }),
  config('grade.old', { dataType: 'BOOLEAN', isArchived: true }),
  config('other.verdict', { dataType: 'BOOLEAN' }),
];
const fields = formFields('grade', configs);

describe('the review form', () => {
  it('has a field per live config of the type, in order, each of its kind', () => {
    expect(fields.map(({ name, kind, options }) => ({ name, kind, options }))).toEqual([
      { name: 'verdict', kind: 'CATEGORICAL', options: ['pass', 'fail', 'unsure'] },
      { name: 'stars', kind: 'NUMERIC', options: [] },
      { name: 'safe', kind: 'BOOLEAN', options: ['yes', 'no'] },
      { name: 'note', kind: 'TEXT', options: [] },
    ]);
    expect(fields[1]).toMatchObject({
      configId: 'grade.stars',
      min: 1,
      max: 5,
    });
  });

  it("labels a field with its config's description (the schema's .describe), else its name", () => {
    expect(fields.map((field) => field.label)).toEqual(['verdict', 'how good', 'safe', 'note']);
  });

  it('gives the value to send when every field is filled in as its config says', () => {
    const draft = { verdict: 'fail', stars: ' 4 ', safe: false, note: 'wrong refund date' };
    expect(checkDraft(fields, draft)).toEqual({
      ok: true,
      value: { verdict: 'fail', stars: 4, safe: false, note: 'wrong refund date' },
    });
    // A text left empty is sent empty: whether that is allowed is the type's schema's to say.
    expect(checkDraft(fields, { ...draft, note: undefined })).toMatchObject({
      ok: true,
      value: { note: '' },
    });
  });

  it('says what is wrong with each field that is not', () => {
    expect(checkDraft(fields, { verdict: 'maybe', stars: '9', note: 'x' })).toEqual({
      ok: false,
      errors: {
        verdict: 'choose one of pass, fail, unsure',
        stars: 'at most 5',
        safe: 'choose yes or no',
      },
    });
    expect(checkDraft(fields, { verdict: 'pass', stars: '0', safe: true })).toEqual({
      ok: false,
      errors: { stars: 'at least 1' },
    });
    for (const stars of ['', 'four', 'Infinity', undefined]) {
      const checked = checkDraft(fields, { verdict: 'pass', stars, safe: true });
      expect(checked.ok, String(stars)).toBe(false);
    }
  });

  it('picks options by their place, yes and no for a boolean, and nothing past the last', () => {
    const [verdict, stars, safe] = fields as [
      (typeof fields)[0],
      (typeof fields)[0],
      (typeof fields)[0],
    ];
    let draft = pick({}, verdict, 1);
    expect(draft).toEqual({ verdict: 'fail' });
    expect(pickedIndex(draft, verdict)).toBe(1);
    draft = pick(draft, safe, 1);
    expect(draft).toEqual({ verdict: 'fail', safe: false });
    expect(pickedIndex(draft, safe)).toBe(1);
    expect(pickedIndex(pick(draft, safe, 0), safe)).toBe(0);
    expect(pick(draft, verdict, 3)).toBe(draft);
    expect(pick(draft, stars, 0)).toBe(draft);
    expect(pickedIndex({}, safe)).toBe(-1);
  });

  it('starts a revision from the value sent before', () => {
    const draft = draftOf(fields, { verdict: 'pass', stars: 3, safe: true, note: 'ok' });
    expect(draft).toEqual({ verdict: 'pass', stars: '3', safe: true, note: 'ok' });
    expect(checkDraft(fields, draft)).toEqual({
      ok: true,
      value: { verdict: 'pass', stars: 3, safe: true, note: 'ok' },
    });
  });
});
