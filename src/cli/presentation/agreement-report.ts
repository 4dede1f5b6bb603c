import { counted } from '../../core/index.js';
import type { AgreementReply } from '../../wire/agreement.js';
import type { Print } from '../context.js';
import { renderTable } from './table.js';

// `evalflow agreement`'s tables: the comparison and its figures, each side's base rates and
// per-label figures, the confusion matrix, how a population's raters agree, and the disagreeing
// targets. Every number is the API's (GET /v1/agreement), written with three decimals.

type Figure = { value: number | null; reason?: string | undefined };

const figure = (f: Figure | null | undefined): string =>
  f === null || f === undefined
    ? '-'
    : f.value === null
      ? `undefined: ${f.reason ?? ''}`.trim()
      : f.value.toFixed(3);

const ratio = (value: number) => value.toFixed(3);

/** The report as lines for a terminal. */
export function printAgreement(report: AgreementReply, workspace: string, out: Print): void {
  out(`${report.a.side} against ${report.b.side} in ${workspace} (as of seq ${report.asOfSeq})`);
  const slices = [
    report.from ? `from ${report.from}` : null,
    report.to ? `to ${report.to}` : null,
    report.targetKind ? `${report.targetKind} targets only` : null,
    Object.keys(report.mapping).length > 0
      ? `labels mapped ${Object.entries(report.mapping)
          .map(([from, to]) => `${from}→${to}`)
          .join(', ')}`
      : null,
  ].filter((s) => s !== null);
  if (slices.length > 0) out(slices.join('; '));
  const counts = report.categorical ?? report.numeric;
  if (counts !== null) {
    out(
      `matched ${counts.matched} of ${counted(counts.targets, 'target')} (only A ${counts.onlyA}, only B ${counts.onlyB})`,
    );
  }
  out('');
  if (report.categorical !== null) printCategorical(report.categorical, out);
  if (report.numeric !== null) printNumeric(report.numeric, out);
  for (const [name, side] of [
    ['A', report.a],
    ['B', report.b],
  ] as const) {
    const raters = side.raters;
    if (raters === null) continue;
    out('');
    out(
      `${name} (${side.side}): ${counted(raters.raters, 'rater')}, ${counted(raters.pairableTargets, 'target')} with two or more, ` +
        `${counted(side.ties, 'tie')}; ${raters.cohenKappa === null ? '' : `Cohen's κ ${figure(raters.cohenKappa)}, `}` +
        `Fleiss' κ ${figure(raters.fleissKappa)}, Krippendorff's α ${figure(raters.krippendorffAlpha)}`,
    );
  }
  out('');
  const { total, listed } = report.disagreements;
  if (total === 0) {
    out('no disagreements');
    return;
  }
  out(`disagreements: ${total}${listed.length < total ? ` (${listed.length} listed)` : ''}`);
  const votes = (list: readonly { participant: string; value: string | number }[]) =>
    list.map((vote) => `${vote.participant}=${vote.value}`).join(' ') || null;
  for (const line of renderTable(
    ['target', 'A', 'B', 'votes'],
    listed.map((d) => [d.targetKey, d.a, d.b, votes([...d.votesA, ...d.votesB])]),
  )) {
    out(line);
  }
}

function printCategorical(c: NonNullable<AgreementReply['categorical']>, out: Print): void {
  const interval = c.kappaInterval;
  const bounds =
    interval.low === null || interval.high === null
      ? `no interval: ${interval.reason ?? ''}`.trim()
      : `${Math.round((interval.level ?? 0.95) * 100)} % interval ${ratio(interval.low)}–${ratio(interval.high)}`;
  for (const line of renderTable(
    ['figure', 'value', ''],
    [
      ["Cohen's κ", figure(c.kappa), bounds],
      ['raw agreement', figure(c.rawAgreement), ''],
      ['chance agreement', figure(c.chanceAgreement), ''],
      ['macro F1', figure(c.macro.f1), ''],
    ],
  )) {
    out(line);
  }
  out('');
  for (const line of renderTable(
    ['label', 'A count', 'A rate', 'B count', 'B rate', 'precision', 'recall', 'F1'],
    c.perLabel.map((l) => [
      l.label,
      l.countA,
      figure(l.rateA),
      l.countB,
      figure(l.rateB),
      ratio(l.precision),
      ratio(l.recall),
      ratio(l.f1),
    ]),
  )) {
    out(line);
  }
  out('');
  out('confusion matrix: rows A, columns B');
  for (const line of renderTable(
    ['A \\ B', ...c.labels],
    c.labels.map((label, i) => [label, ...(c.confusion[i] ?? [])]),
  )) {
    out(line);
  }
}

function printNumeric(n: NonNullable<AgreementReply['numeric']>, out: Print): void {
  for (const line of renderTable(
    ['figure', 'value'],
    [
      ['mean A', figure(n.meanA)],
      ['mean B', figure(n.meanB)],
      ['Pearson', figure(n.pearson)],
      ['Spearman', figure(n.spearman)],
      ['MAE', figure(n.mae)],
      ['RMSE', figure(n.rmse)],
    ],
  )) {
    out(line);
  }
}
