// Stored verdicts with a known answer: twelve assistant messages (m1..m12) judged by
// politeness@1 and @2 (m12 twice by @2: a re-evaluation's later generation), reviewed by grace,
// ada and bo, and grace's review_verdict on six of them. stored-verdicts.ts stores them; the
// evidence tests compare them through the store; the reference test (test/agreement/fixtures.ts)
// computes the same comparisons, written out below target by target, with scikit-learn, scipy
// and krippendorff. Plain data: nothing is imported.

type Polite = boolean | null;
/** Per message: @1, @2 (its generations, oldest first), grace, ada, bo; null: none given. */
export const stored: readonly (readonly [Polite, readonly boolean[], Polite, Polite, Polite])[] = [
  [true, [true], true, true, null],
  [true, [false], false, false, null],
  [false, [false], false, true, false],
  [true, [true], true, false, null],
  [false, [true], true, null, null],
  [true, [true], true, true, true],
  [false, [false], false, false, null],
  [true, [true], false, null, null],
  [false, [false], null, null, null],
  [true, [true], true, true, null],
  [null, [true], true, null, null],
  [true, [false, true], true, true, null],
];
/** @2's warmth and the reviewers' (grace, ada) on the first six messages. */
export const warmth: readonly (readonly [number, number | null, number | null])[] = [
  [4, 5, 4],
  [2, 1, 2],
  [1, 2, null],
  [3, 3, 4],
  [5, 4, null],
  [4, 4, 5],
];
/** grace's review_verdict on the first six messages: her politeness verdict as pass or fail. */
export const graceVerdicts = stored.slice(0, 6).map(([, , grace]) => (grace ? 'pass' : 'fail'));

// What the comparisons read, target by target (m1..m12), as the store should align them.
const T = true;
const F = false;
const _ = null;
/** politeness@2's current verdicts: each message's latest generation. */
export const latestOfVersion2 = [T, F, F, T, T, T, F, T, F, T, T, T];
export const version1 = [T, T, F, T, F, T, F, T, F, T, _, T];
/** The reviewers' majority: m4 is a tie (grace true, ada false), m9 has no review. */
export const reviewersMajority = [T, F, F, _, T, T, F, F, _, T, T, T];
/** Each message's reviews, as the raters' figures take them. */
export const reviewerVotes = stored.map(([, , ...votes]) => votes.filter((v) => v !== null));
/** The reviewers' mean warmth, and @2's. */
export const reviewersWarmth = warmth.map(([, g, a]) =>
  g === null ? a : a === null ? g : (g + a) / 2,
);
export const version2Warmth = warmth.map(([w]) => w);
/** Users' helpfulness ratings: [user, message index, helpful]; m3's two users tie. */
export const userRatings: readonly (readonly [string, number, boolean])[] = [
  ['u1', 0, true],
  ['u2', 0, true],
  ['u3', 0, false],
  ['u1', 1, false],
  ['u1', 2, true],
  ['u2', 2, false],
];
