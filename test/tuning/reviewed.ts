import type { ReviewedTarget } from '../../src/tuning/index.js';

// Reviewed targets for the tuning tests and the bench: message targets with the reviewers' and the
// judge's labels, built from a seeded stream so every dataset is reproducible from its seed.

/** A reviewed message target `m{index}`: the reviewers say `reviewersLabel`, the judge `judgeLabel`. */
export function reviewed(
  index: number,
  reviewersLabel: string,
  judgeLabel: string = reviewersLabel,
  text = `the answer to question ${index}`,
): ReviewedTarget {
  return {
    target: { kind: 'message', thread_id: 't', message_id: `m${index}`, run_id: null },
    text,
    judgeLabel,
    reviewersLabel,
    reviewers: [{ raterId: 'user:ana', label: reviewersLabel, note: `note on ${index}` }],
    expectedVerdict: { passed: reviewersLabel === 'pass', reasoning: `because ${index}` },
  };
}

/** A seeded stream of uniforms in [0, 1) (mulberry32): the datasets' own, not tuning's generator. */
export function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * `count` targets over `labels` (skewed: each label half as likely as the one before), the judge
 * wrong on about `errorRate` of them.
 */
export function dataset(
  seed: number,
  count: number,
  labels: readonly string[] = ['fail', 'pass'],
  errorRate = 0.2,
): ReviewedTarget[] {
  const next = uniforms(seed);
  const weights = labels.map((_, i) => 2 ** -i);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const labelAt = (u: number) => {
    let left = u * total;
    for (const [i, w] of weights.entries()) {
      left -= w;
      if (left < 0) return labels[i] as string;
    }
    return labels[labels.length - 1] as string;
  };
  return Array.from({ length: count }, (_, i) => {
    const truth = labelAt(next());
    const wrong = next() < errorRate && labels.length > 1;
    const judged = wrong ? (labels.find((l) => l !== truth) as string) : truth;
    return reviewed(i, truth, judged);
  });
}
