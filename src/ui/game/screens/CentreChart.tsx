// Supply centres per year as a small line chart, one line per power in its colour with a point per
// year and its initials at the end, plus the same numbers as a table so colour is never the only
// cue. With a single year there is no line to draw: one bar per power, its count above it.
import { POWERS } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import { POWER_COLOURS } from '../../map/colours';
import type { CentreYear } from './logic';
import { SCREEN_STRINGS } from './strings';

const W = 320;
const H = 150;
const PAD = { left: 24, right: 26, top: 8, bottom: 20 };

/** End-of-line label heights pushed apart so equal counts do not print on top of each other. */
export function spreadLabels(ys: readonly number[], gap: number): number[] {
  // Upwards from the lowest label: small counts crowd the bottom of the chart, where there is no room below.
  const order = ys.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);
  const out = [...ys];
  let prev = Infinity;
  for (const { v, i } of order) {
    const at = Math.min(v, prev - gap);
    out[i] = at;
    prev = at;
  }
  return out;
}

export function CentreChart(props: { series: readonly CentreYear[]; lang: Lang }) {
  const { series, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  if (series.length === 0) return null;
  const max = Math.max(18, ...series.flatMap((y) => POWERS.map((p) => y.counts[p])));
  const x = (i: number) => PAD.left + (series.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (series.length - 1));
  const y = (n: number) => H - PAD.bottom - (n * (H - PAD.top - PAD.bottom)) / max;
  const active = POWERS.filter((p) => series.some((yr) => yr.counts[p] > 0));
  const labelY = spreadLabels(
    active.map((p) => y(series[series.length - 1]!.counts[p])),
    8,
  );
  const single = series.length === 1;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, active.length);
  return (
    <figure className="centre-chart">
      <figcaption>{s.chartTitle}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={s.chartTitle} width="100%">
        <line x1={PAD.left} y1={y(0)} x2={W - PAD.right} y2={y(0)} className="axis" />
        <line x1={PAD.left} y1={y(18)} x2={W - PAD.right} y2={y(18)} className="axis goal" />
        <text x={PAD.left - 4} y={y(18) + 3} className="tick" textAnchor="end">
          18
        </text>
        <text x={PAD.left - 4} y={y(0) + 3} className="tick" textAnchor="end">
          0
        </text>
        {single
          ? null
          : series.map((yr, i) => (
              <text key={yr.year} x={x(i)} y={H - 6} className="tick" textAnchor="middle">
                {series.length > 6 && i % 2 === 1 ? '' : String(yr.year).slice(-2)}
              </text>
            ))}
        {single
          ? active.map((p, k) => {
              const n = series[0]!.counts[p];
              const cx = PAD.left + slot * (k + 0.5);
              const bw = Math.min(24, slot * 0.7);
              return (
                <g key={p} data-power={p} className="bar">
                  <title>{s.chartLabel(t.powers[p], `${series[0]!.year}: ${n}`)}</title>
                  <rect x={cx - bw / 2} y={y(n)} width={bw} height={Math.max(0, y(0) - y(n))} fill={POWER_COLOURS[p]} />
                  <text x={cx} y={y(n) - 3} className="tick end-label" textAnchor="middle">
                    {n}
                  </text>
                  <text x={cx} y={y(0) + 10} className="tick end-label" textAnchor="middle">
                    {t.powerInitials[p]}
                  </text>
                </g>
              );
            })
          : active.map((p, k) => {
              const points = series.map((yr, i) => `${x(i)},${y(yr.counts[p])}`).join(' ');
              return (
                <g key={p} data-power={p}>
                  <title>{s.chartLabel(t.powers[p], series.map((yr) => `${yr.year}: ${yr.counts[p]}`).join(', '))}</title>
                  <polyline points={points} fill="none" stroke={POWER_COLOURS[p]} strokeWidth={2} />
                  {series.map((yr, i) => (
                    <circle key={yr.year} cx={x(i)} cy={y(yr.counts[p])} r={2.2} fill={POWER_COLOURS[p]} className="point" />
                  ))}
                  <text x={x(series.length - 1) + 3} y={labelY[k]! + 3} className="tick end-label">
                    {t.powerInitials[p]}
                  </text>
                </g>
              );
            })}
      </svg>
      <table className="chart-table">
        <thead>
          <tr>
            <th scope="col">{t.centres}</th>
            {series.map((yr) => (
              <th key={yr.year} scope="col">
                {yr.year}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {active.map((p) => (
            <tr key={p} data-power={p}>
              <th scope="row">{t.powers[p]}</th>
              {series.map((yr) => (
                <td key={yr.year}>{yr.counts[p]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
