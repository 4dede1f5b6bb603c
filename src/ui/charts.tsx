import type { ComponentChildren } from 'preact';
import { usdExactText } from '../core/money.js';
import { addUsd, type DayCount, type VersionSpend } from './evaluators-data.js';
import type { KappaDay } from './judge-versions-data.js';

// The evaluators page's plots, drawn here as SVG (no chart library, nothing fetched): a day's
// verdicts as a bar stacked by label with the trend of one label's share as a line over them,
// a day's spend as a bar stacked by evaluator version, and a confusion matrix as a heatmap. Each mark has a <title> with its number, and the figures
// are also in the text beside them, so nothing is only a colour.

/** Label colours, in order (distinct for common colour blindness; 4.5:1 against white). */
const PALETTE = ['#1f5fbf', '#b35900', '#2a7a3b', '#8a3ab9', '#9b1c28', '#4d5b68'];
export const labelColour = (i: number) => PALETTE[i % PALETTE.length] as string;

const W = 640;
const H = 180;
const PAD = { left: 36, right: 36, top: 12, bottom: 28 };

/**
 * Where `count` day bars of a chart go: each day's slot, its bar's width and left edge, the
 * height of a value out of `top`, and which days are labelled (about eight).
 */
function dayBars(count: number, top: number) {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, count);
  const barW = Math.max(2, slot * 0.7);
  return {
    plotH,
    slot,
    barW,
    barX: (i: number) => PAD.left + slot * i + (slot - barW) / 2,
    y: (value: number) => PAD.top + plotH - (value / top) * plotH,
    every: Math.ceil(count / 8),
  };
}

/** A day chart's frame: its name (a screen reader's, and the tooltip's) and its axis at `axisY`. */
function DayChartFrame(props: {
  title: string;
  testId: string;
  axisY: number;
  children: ComponentChildren;
}) {
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={props.title}
      data-testid={props.testId}
    >
      <title>{props.title}</title>
      <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={props.axisY} y2={props.axisY} />
      {props.children}
    </svg>
  );
}

export function VolumeChart(props: {
  series: readonly DayCount[];
  labels: readonly string[];
  trend: readonly (number | null)[];
  trendLabel: string | null;
  title: string;
}) {
  const { series, labels, trend } = props;
  const most = Math.max(1, ...series.map((day) => day.count));
  const { plotH, slot, barW, barX, y, every } = dayBars(series.length, most);
  const share = (s: number) => PAD.top + plotH - s * plotH;
  const points = trend
    .map((s, i) => (s === null ? null : `${PAD.left + slot * (i + 0.5)},${share(s)}`))
    .filter((p): p is string => p !== null);
  return (
    <DayChartFrame title={props.title} testId="volume-chart" axisY={y(0)}>
      <text class="tick" x={PAD.left - 4} y={y(most) + 4} text-anchor="end">
        {most}
      </text>
      <text class="tick" x={PAD.left - 4} y={y(0)} text-anchor="end">
        0
      </text>
      {props.trendLabel !== null && (
        <>
          <text class="tick" x={W - PAD.right + 4} y={share(1) + 4}>
            100%
          </text>
          <text class="tick" x={W - PAD.right + 4} y={share(0)}>
            0%
          </text>
        </>
      )}
      {series.map((day, i) => {
        const x = barX(i);
        let base = 0;
        return (
          <g key={day.from} class="bar" data-day={day.from.slice(0, 10)} data-count={day.count}>
            <title>{`${day.from.slice(0, 10)}: ${day.count} verdicts${labels
              .map((label) => `, ${label} ${day.byLabel[label] ?? 0}`)
              .join('')}`}</title>
            {labels.map((label, l) => {
              const n = day.byLabel[label] ?? 0;
              const top = y(base + n);
              const height = y(base) - top;
              base += n;
              return n === 0 ? null : (
                <rect
                  key={label}
                  x={x}
                  y={top}
                  width={barW}
                  height={height}
                  fill={labelColour(l)}
                  data-label={label}
                  data-count={n}
                />
              );
            })}
            {i % every === 0 && (
              <text class="tick" x={x + barW / 2} y={H - 8} text-anchor="middle">
                {day.from.slice(5, 10)}
              </text>
            )}
          </g>
        );
      })}
      {points.length > 0 && (
        <polyline class="trend" points={points.join(' ')} data-testid="trend-line" />
      )}
      {trend.map((s, i) =>
        s === null ? null : (
          <circle
            key={series[i]?.from ?? i}
            class="trend-point"
            cx={PAD.left + slot * (i + 0.5)}
            cy={share(s)}
            r={3}
          >
            <title>{`${series[i]?.from.slice(0, 10)}: ${(s * 100).toFixed(1)} % ${props.trendLabel}`}</title>
          </circle>
        ),
      )}
    </DayChartFrame>
  );
}

/**
 * κ as of each day as a line on a scale from −1 to 1, 0 marked (chance agreement); a day where κ
 * is undefined (no matched target, one label only) is a gap, never drawn as 0.
 */
export function KappaChart(props: { days: readonly KappaDay[]; title: string }) {
  const { days } = props;
  const { slot, y, every } = dayBars(days.length, 2);
  const at = (kappa: number) => y(kappa + 1);
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const runs: string[][] = [[]];
  days.forEach((day, i) => {
    if (day.kappa === null) runs.push([]);
    else runs[runs.length - 1]?.push(`${x(i)},${at(day.kappa)}`);
  });
  return (
    <DayChartFrame title={props.title} testId="kappa-chart" axisY={at(0)}>
      {[1, 0, -1].map((tick) => (
        <text key={tick} class="tick" x={PAD.left - 4} y={at(tick) + 4} text-anchor="end">
          {tick}
        </text>
      ))}
      {runs.map((run) =>
        run.length > 1 ? <polyline key={run[0]} class="trend" points={run.join(' ')} /> : null,
      )}
      {days.map((day, i) => (
        <g key={day.day} data-day={day.day} data-kappa={day.kappa ?? ''} data-matched={day.matched}>
          {day.kappa !== null && (
            <circle class="trend-point" cx={x(i)} cy={at(day.kappa)} r={3}>
              <title>{`${day.day}: κ ${day.kappa.toFixed(3)} over ${day.matched} matched targets`}</title>
            </circle>
          )}
          {i % every === 0 && (
            <text class="tick" x={x(i)} y={H - 8} text-anchor="middle">
              {day.day.slice(5)}
            </text>
          )}
        </g>
      ))}
    </DayChartFrame>
  );
}

/** Each day's spend as a bar stacked by version (colours in the versions' order). */
export function SpendChart(props: { versions: readonly VersionSpend[]; title: string }) {
  const { versions } = props;
  const days = versions[0]?.days.map((d) => d.day) ?? [];
  const dayTotal = (i: number) =>
    versions.reduce((sum, v) => addUsd(sum, v.days[i]?.costUsd ?? 0), 0);
  const most = Math.max(0, ...days.map((_, i) => dayTotal(i)));
  const scale = most > 0 ? most : 1;
  const { barW, barX, y, every } = dayBars(days.length, scale);
  return (
    <DayChartFrame title={props.title} testId="spend-chart" axisY={y(0)}>
      {/* Above the tallest bar, from the axis's start: a dollar figure is wider than the margin. */}
      <text
        class="tick"
        x={PAD.left}
        y={y(scale) - 2}
        text-anchor="start"
        data-testid="spend-axis-top"
      >
        {usdExactText(most)}
      </text>
      {days.map((day, i) => {
        const x = barX(i);
        let base = 0;
        return (
          <g key={day} class="bar" data-day={day} data-cost={dayTotal(i)}>
            <title>{`${day}: ${usdExactText(dayTotal(i))}${versions
              .map((v) => `, ${v.version} ${usdExactText(v.days[i]?.costUsd ?? 0)}`)
              .join('')}`}</title>
            {versions.map((v, n) => {
              const usd = v.days[i]?.costUsd ?? 0;
              const top = y(base + usd);
              const height = y(base) - top;
              base += usd;
              return usd === 0 ? null : (
                <rect
                  key={v.version}
                  x={x}
                  y={top}
                  width={barW}
                  height={height}
                  fill={labelColour(n)}
                  data-version={v.version}
                  data-cost={usd}
                />
              );
            })}
            {i % every === 0 && (
              <text class="tick" x={x + barW / 2} y={H - 8} text-anchor="middle">
                {day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </DayChartFrame>
  );
}

/** A confusion matrix (rows A, columns B) as cells shaded by their share of the largest. */
export function ConfusionHeatmap(props: {
  labels: readonly string[];
  confusion: readonly (readonly number[])[];
  rowsName: string;
  columnsName: string;
}) {
  const { labels, confusion } = props;
  const cell = 56;
  const left = 90;
  const top = 40;
  const most = Math.max(1, ...confusion.flat());
  const width = left + cell * labels.length + 8;
  const height = top + cell * labels.length + 8;
  return (
    <svg
      class="heatmap"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={`Confusion matrix: rows ${props.rowsName}, columns ${props.columnsName}`}
      data-testid="confusion-heatmap"
    >
      <title>{`Rows: ${props.rowsName}; columns: ${props.columnsName}`}</title>
      <text class="tick" x={left} y={12}>
        B →
      </text>
      <text class="tick" x={4} y={top - 8}>
        A ↓
      </text>
      {labels.map((label, j) => (
        <text
          key={`c${label}`}
          class="tick"
          x={left + cell * (j + 0.5)}
          y={top - 8}
          text-anchor="middle"
        >
          {label}
        </text>
      ))}
      {labels.map((rowLabel, i) => (
        <g key={`r${rowLabel}`}>
          <text class="tick" x={left - 6} y={top + cell * (i + 0.5) + 4} text-anchor="end">
            {rowLabel}
          </text>
          {labels.map((columnLabel, j) => {
            const n = confusion[i]?.[j] ?? 0;
            const strength = n / most;
            return (
              <g key={columnLabel} data-row={rowLabel} data-column={columnLabel} data-count={n}>
                <title>{`${props.rowsName} ${rowLabel}, ${props.columnsName} ${columnLabel}: ${n}`}</title>
                <rect
                  class={i === j ? 'cell agree' : 'cell'}
                  x={left + cell * j}
                  y={top + cell * i}
                  width={cell - 2}
                  height={cell - 2}
                  fill={`rgba(31, 95, 191, ${(0.08 + 0.92 * strength).toFixed(3)})`}
                />
                <text
                  class={strength > 0.55 ? 'count light' : 'count'}
                  x={left + cell * j + (cell - 2) / 2}
                  y={top + cell * i + cell / 2 + 4}
                  text-anchor="middle"
                >
                  {n}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}
