// The board as inline SVG: provinces (tappable, keyboard-focusable, named in the player's
// language), split coasts as their own small targets, supply centres in their owners' colours,
// units, order arrows and the results overlay; pinch-zoom and pan with pointer events or buttons.
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import { STANDARD_MAP, provinceOf } from '../../rules';
import type { Coast, Loc, Order, OrderResult, Position, ProvinceId, Unit } from '../../rules';
import { STRINGS, coastName, unitTypeName, type Lang } from '../i18n';
import { POWER_COLOURS } from './colours';
import { locPoint, orderGlyphs, resultMarks, shorten, type Glyph, type Mark } from './geometry';
import { MAP_HEIGHT, MAP_WIDTH, PROVINCE_ART } from './map-data';
import { UnitPiece } from './Units';
import { FULL_VIEW, panBy, zoomAt, zoomCentre, type View } from './zoom';

export interface BoardProps {
  readonly position: Position;
  readonly lang: Lang;
  /** Orders to draw as arrows (drafted ones, or the ones `results` adjudicated). */
  readonly orders: readonly Order[];
  /** When given, arrows show success or failure and the overlay marks bounces, cuts, dislodgements. */
  readonly results?: readonly OrderResult[];
  readonly selected?: Loc;
  readonly targets?: readonly Loc[];
  readonly onTap?: (loc: Loc) => void;
}

const PROVINCE_IDS = Object.keys(PROVINCE_ART).sort();
// Seas first: the drawing's North Sea is a plain shape that the land must cover.
const DRAW_ORDER = [
  ...PROVINCE_IDS.filter((id) => STANDARD_MAP.provinces[id]?.kind === 'sea'),
  ...PROVINCE_IDS.filter((id) => STANDARD_MAP.provinces[id]?.kind !== 'sea'),
];
const DRAG_THRESHOLD = 6; // px on screen before a touch counts as a pan rather than a tap

function unitLabel(unit: Unit, lang: Lang): string {
  return `${unitTypeName(unit.type, lang)}, ${STRINGS[lang].powers[unit.power]}`;
}

function GlyphShape({ g }: { g: Glyph }) {
  const state = g.success === undefined ? 'draft' : g.success ? 'ok' : 'failed';
  const cls = `glyph ${g.kind} ${state}`;
  const [a, b, c] = g.points;
  if (!a) return null;
  switch (g.kind) {
    case 'hold':
      return <circle cx={a.x} cy={a.y} r={11} className={cls} />;
    case 'build':
      return (
        <g className={cls}>
          <circle cx={a.x} cy={a.y} r={11} />
          <path d={`M${a.x - 5},${a.y} h10 M${a.x},${a.y - 5} v10`} />
        </g>
      );
    case 'remove':
      return <path className={cls} d={`M${a.x - 8},${a.y - 8} l16,16 M${a.x + 8},${a.y - 8} l-16,16`} />;
    case 'convoy':
      if (!b || !c) return null;
      return <path className={cls} d={`M${a.x},${a.y} Q${b.x},${b.y} ${shorten(b, c, 8).x},${shorten(b, c, 8).y}`} markerEnd={`url(#head-${state})`} />;
    default: {
      if (!b) return null;
      const end = g.kind === 'support' ? shorten(a, b, 3) : shorten(a, b, 8);
      return <line className={cls} x1={a.x} y1={a.y} x2={end.x} y2={end.y} markerEnd={g.kind === 'support' ? undefined : `url(#head-${state})`} />;
    }
  }
}

function MarkShape({ m, lang }: { m: Mark; lang: Lang }) {
  const label = STRINGS[lang].marks[m.kind];
  const { x, y } = m.at;
  return (
    <g className={`mark ${m.kind}`} data-mark={m.kind} data-loc={m.loc}>
      <title>{label}</title>
      {m.kind === 'bounced' ? (
        <path d={`M${x},${y - 7} L${x + 2.5},${y - 2.5} L${x + 7},${y} L${x + 2.5},${y + 2.5} L${x},${y + 7} L${x - 2.5},${y + 2.5} L${x - 7},${y} L${x - 2.5},${y - 2.5} Z`} />
      ) : m.kind === 'cut' ? (
        <path d={`M${x - 6},${y - 12} l12,8 M${x + 6},${y - 12} l-12,8`} />
      ) : m.kind === 'dislodged' ? (
        <circle cx={x} cy={y} r={12} />
      ) : (
        <g>
          <circle cx={x + 8} cy={y - 8} r={4.5} />
          <text x={x + 8} y={y - 6}>!</text>
        </g>
      )}
    </g>
  );
}

export function Board(props: BoardProps) {
  const { position, lang, orders, results, selected, onTap } = props;
  const t = STRINGS[lang];
  const [view, setView] = useState<View>(FULL_VIEW);
  const svgRef = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef({ dragged: false, startX: 0, startY: 0 });

  const targets = new Set(props.targets ?? []);
  const targetProvinces = new Set([...targets].map(provinceOf));
  const unitAt = new Map<ProvinceId, Unit>(position.units.map((u) => [provinceOf(u.loc), u]));

  const scale = (): number => view.w / (svgRef.current?.clientWidth || MAP_WIDTH);
  const toMap = (clientX: number, clientY: number): { x: number; y: number } => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect) return { x: 0, y: 0 };
    return { x: view.x + (clientX - rect.left) * scale(), y: view.y + (clientY - rect.top) * scale() };
  };

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      const rect = svg.getBoundingClientRect();
      setView((v) => {
        const k = v.w / (svg.clientWidth || MAP_WIDTH);
        return zoomAt(v, e.deltaY < 0 ? 1.2 : 1 / 1.2, v.x + (e.clientX - rect.left) * k, v.y + (e.clientY - rect.top) * k);
      });
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>): void => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 1) gesture.current = { dragged: false, startX: e.clientX, startY: e.clientY };
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>): void => {
    const prev = pointers.current.get(e.pointerId);
    if (!prev) return;
    const now = { x: e.clientX, y: e.clientY };
    if (pointers.current.size === 1) {
      if (!gesture.current.dragged && Math.hypot(now.x - gesture.current.startX, now.y - gesture.current.startY) < DRAG_THRESHOLD) return;
      gesture.current.dragged = true;
      const k = scale();
      setView((v) => panBy(v, (now.x - prev.x) * k, (now.y - prev.y) * k));
    } else if (pointers.current.size === 2) {
      gesture.current.dragged = true;
      const other = [...pointers.current.entries()].find(([id]) => id !== e.pointerId)?.[1];
      if (other) {
        const before = Math.hypot(prev.x - other.x, prev.y - other.y);
        const after = Math.hypot(now.x - other.x, now.y - other.y);
        const centre = toMap((now.x + other.x) / 2, (now.y + other.y) / 2);
        if (before > 0 && after > 0) setView((v) => zoomAt(v, after / before, centre.x, centre.y));
      }
    }
    pointers.current.set(e.pointerId, now);
  };
  const onPointerEnd = (e: ReactPointerEvent<SVGSVGElement>): void => {
    pointers.current.delete(e.pointerId);
  };

  const tap = (loc: Loc): void => {
    if (gesture.current.dragged) return; // the end of a pan or pinch is not a tap
    onTap?.(loc);
  };
  const onKey = (loc: Loc) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onTap?.(loc);
    }
  };

  const glyphs = orderGlyphs(orders, results);
  const marks = results ? resultMarks(results) : [];
  const dislodgedUnits = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : [];

  return (
    <div className="board">
      <svg
        ref={svgRef}
        viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`}
        role="group"
        aria-label={t.mapLabel}
        className="board-svg"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onPointerLeave={onPointerEnd}
      >
        <defs>
          {(['draft', 'ok', 'failed'] as const).map((s) => (
            <marker key={s} id={`head-${s}`} viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 Z" className={`head ${s}`} />
            </marker>
          ))}
        </defs>
        <rect x={0} y={0} width={MAP_WIDTH} height={MAP_HEIGHT} className="sea-bg" />
        {DRAW_ORDER.map((id) => {
          const art = PROVINCE_ART[id]!;
          const province = STANDARD_MAP.provinces[id];
          const kind = province?.kind ?? 'land';
          const owner = position.centres[id];
          const unit = unitAt.get(id);
          const name = province?.name[lang] ?? id;
          const label = unit ? `${name}: ${unitLabel(unit, lang)}` : name;
          const passable = kind !== 'impassable';
          const cls = ['province', kind === 'sea' ? 'sea' : kind === 'impassable' ? 'impassable' : 'land', targetProvinces.has(id) ? 'target' : ''].join(' ').trim();
          return (
            <g
              key={id}
              className={cls}
              data-province={id}
              data-x={art.unit.x}
              data-y={art.unit.y}
              {...(passable
                ? { role: 'button', tabIndex: 0, 'aria-label': label, onClick: () => tap(id), onKeyDown: onKey(id) }
                : { 'aria-hidden': true })}
            >
              {art.paths.map((d, i) => (
                <path key={i} d={d} style={owner && kind !== 'sea' ? { fill: POWER_COLOURS[owner], fillOpacity: 0.3 } : undefined} className="shape" />
              ))}
              {art.water.map((d, i) => (
                <path key={`w${i}`} d={d} className="strait" />
              ))}
            </g>
          );
        })}
        {PROVINCE_IDS.map((id) => {
          const art = PROVINCE_ART[id]!;
          return (
            <text key={id} x={art.label.x} y={art.label.y} className={`label ${STANDARD_MAP.provinces[id]?.kind === 'sea' ? 'sea' : 'land'}`}>
              {(STANDARD_MAP.provinces[id]?.abbr[lang][0] ?? id).slice(0, 3)}
            </text>
          );
        })}
        {PROVINCE_IDS.filter((id) => PROVINCE_ART[id]!.centre).map((id) => {
          const c = PROVINCE_ART[id]!.centre!;
          const owner = position.centres[id];
          return (
            <circle key={id} cx={c.x} cy={c.y} r={3.6} className="centre" data-centre={id} data-owner={owner ?? ''} style={{ fill: owner ? POWER_COLOURS[owner] : '#ffffff' }}>
              <title>{`${STANDARD_MAP.provinces[id]?.name[lang] ?? id}: ${t.supplyCentre}${owner ? `, ${t.powers[owner]}` : ''}`}</title>
            </circle>
          );
        })}
        {PROVINCE_IDS.flatMap((id) =>
          Object.entries(PROVINCE_ART[id]!.coasts ?? {}).map(([coast, p]) => {
            const loc = `${id}/${coast}`;
            const name = `${STANDARD_MAP.provinces[id]?.name[lang] ?? id} (${coastName(coast as Coast, lang)})`;
            return (
              <circle
                key={loc}
                cx={p.x}
                cy={p.y}
                r={5}
                className={targets.has(loc) ? 'coast target' : 'coast'}
                data-loc={loc}
                role="button"
                tabIndex={0}
                aria-label={name}
                onClick={() => tap(loc)}
                onKeyDown={onKey(loc)}
              />
            );
          }),
        )}
        {selected ? <circle cx={locPoint(selected).x} cy={locPoint(selected).y} r={13} className="selected-ring" /> : null}
        <g className="glyphs">
          {glyphs.map((g) => (
            <GlyphShape key={g.key} g={g} />
          ))}
        </g>
        <g className="units">
          {position.units.map((u) => (
            <UnitPiece key={u.loc} type={u.type} power={u.power} at={locPoint(u.loc)} initials={t.powerInitials[u.power]} />
          ))}
          {dislodgedUnits.map((u) => {
            const p = locPoint(u.loc);
            const label = `${unitLabel(u, lang)} (${t.dislodged}): ${STANDARD_MAP.provinces[provinceOf(u.loc)]?.name[lang] ?? u.loc}`;
            return (
              <UnitPiece key={`d-${u.loc}`} type={u.type} power={u.power} at={{ x: p.x + 9, y: p.y + 9 }} initials={t.powerInitials[u.power]} dislodged label={label} onTap={() => tap(u.loc)} />
            );
          })}
        </g>
        <g className="marks">
          {marks.map((m, i) => (
            <MarkShape key={i} m={m} lang={lang} />
          ))}
        </g>
      </svg>
      <div className="zoom-buttons">
        <button type="button" aria-label={t.zoomIn} title={t.zoomIn} onClick={() => setView((v) => zoomCentre(v, 1.5))}>
          +
        </button>
        <button type="button" aria-label={t.zoomOut} title={t.zoomOut} onClick={() => setView((v) => zoomCentre(v, 1 / 1.5))}>
          −
        </button>
        <button type="button" aria-label={t.zoomReset} title={t.zoomReset} onClick={() => setView(FULL_VIEW)}>
          ⤢
        </button>
      </div>
    </div>
  );
}
