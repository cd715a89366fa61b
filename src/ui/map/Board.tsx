// The board as inline SVG: provinces (named in the player's language, one stop in the Tab order
// with arrow keys between neighbours), supply centres in their owners' colours, units, order
// arrows and the results overlay; pinch-zoom and pan with pointer events. Every control sits in a
// bar under the map, never over it. A tap goes through resolveTap (hit.ts): near a unit it is that
// unit, on a border or beside a tiny province it is the nearest place within a finger's reach.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent as ReactMouseEvent, PointerEvent as ReactPointerEvent } from 'react';
import { STANDARD_MAP, provinceOf } from '../../rules';
import type { Coast, GameMap, Loc, Order, OrderResult, Position, ProvinceId, Unit } from '../../rules';
import { STRINGS, coastName, unitTypeName, type Lang } from '../i18n';
import { POWER_COLOURS } from './colours';
import { locPoint, orderGlyphs, resultMarks, shorten, type Glyph, type Mark } from './geometry';
import { resolveTap } from './hit';
import { isArrow, neighbourInDirection } from './keys';
import { MAP_HEIGHT, MAP_WIDTH, PROVINCE_ART } from './map-data';
import { UnitPiece } from './Units';
import { FULL_VIEW, panBy, showPoint, zoomAt, zoomCentre, type View } from './zoom';

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
  /** Escape on the map (the entry's "cancel"). */
  readonly onEscape?: () => void;
  /** Where keyboard focus enters the map (the player's first unit, say); the selected unit wins. */
  readonly keyStart?: ProvinceId;
  /** The phase's map (view.current.map): provinces it closes (two players: Italy before the toss)
   *  are drawn closed. The standard map if absent. */
  readonly map?: GameMap;
}

const PROVINCE_IDS = Object.keys(PROVINCE_ART).sort();
// Seas first: the drawing's North Sea is a plain shape that the land must cover.
const DRAW_ORDER = [
  ...PROVINCE_IDS.filter((id) => STANDARD_MAP.provinces[id]?.kind === 'sea'),
  ...PROVINCE_IDS.filter((id) => STANDARD_MAP.provinces[id]?.kind !== 'sea'),
];
const DRAG_THRESHOLD = 6; // px on screen before a touch counts as a pan rather than a tap
/** Labels show only where they are readable, 9 to 15 px on screen: from the drawing's 7-unit
 *  letters enlarged by at most 1.2 (more would cover the neighbours' names), so none at a phone's
 *  default zoom, where the tapped province's name shows under the map instead. */
const LABEL_SIZE = 7;
const LABEL_MIN_PX = 9;
const LABEL_MAX_PX = 15;
const LABEL_GROWTH = 1.2;

/** A province's short name on the map: the rulebook abbreviation, else the first letters of its name. */
export function mapLabel(id: ProvinceId, lang: Lang): string {
  const p = STANDARD_MAP.provinces[id];
  return (p?.abbr[lang][0] ?? p?.name[lang] ?? id).slice(0, 3);
}

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
        <path
          d={`M${x},${y - 7} L${x + 2.5},${y - 2.5} L${x + 7},${y} L${x + 2.5},${y + 2.5} L${x},${y + 7} L${x - 2.5},${y + 2.5} L${x - 7},${y} L${x - 2.5},${y - 2.5} Z`}
        />
      ) : m.kind === 'cut' ? (
        <path d={`M${x - 6},${y - 12} l12,8 M${x + 6},${y - 12} l-12,8`} />
      ) : m.kind === 'dislodged' ? (
        <circle cx={x} cy={y} r={12} />
      ) : (
        <g>
          <circle cx={x + 8} cy={y - 8} r={4.5} />
          <text x={x + 8} y={y - 6}>
            !
          </text>
        </g>
      )}
    </g>
  );
}

export function Board(props: BoardProps) {
  const { position, lang, orders, results, selected, onTap } = props;
  const t = STRINGS[lang];
  const [view, setView] = useState<View>(FULL_VIEW);
  const [pxWidth, setPxWidth] = useState(0);
  const [caption, setCaption] = useState<ProvinceId | null>(null);
  const [focusId, setFocusId] = useState<ProvinceId | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  // One gesture from the first finger (or mouse button) down to the last one up: did it pan or pinch,
  // and did its lifting already count as the tap (so the click the browser may make of it does not).
  const gesture = useRef({ dragged: false, startX: 0, startY: 0, tapped: false });
  const hintId = useId();

  const targetList = props.targets ?? [];
  const targets = new Set(targetList);
  const targetProvinces = new Set(targetList.map(provinceOf));
  const unitAt = new Map<ProvinceId, Unit>(position.units.map((u) => [provinceOf(u.loc), u]));
  const dislodgedUnits = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : [];
  const dislodgedAt = (loc: Loc) => {
    const p = locPoint(loc);
    return { x: p.x + 9, y: p.y + 9 };
  };

  // Screen pixels per map unit, for labels and for a finger's reach.
  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const measure = () => setPxWidth(svg.clientWidth);
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(measure);
    ro.observe(svg);
    return () => ro.disconnect();
  }, []);
  const scale = (pxWidth || MAP_WIDTH) / view.w;

  const toMap = (clientX: number, clientY: number): { x: number; y: number } => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return { x: 0, y: 0 };
    const k = view.w / rect.width;
    return { x: view.x + (clientX - rect.left) * k, y: view.y + (clientY - rect.top) * k };
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
    if (pointers.current.size === 1) gesture.current = { dragged: false, startX: e.clientX, startY: e.clientY, tapped: false };
    else gesture.current.dragged = true; // a second finger: a pinch, never a tap
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>): void => {
    const prev = pointers.current.get(e.pointerId);
    if (!prev) return;
    const now = { x: e.clientX, y: e.clientY };
    if (pointers.current.size === 1) {
      if (!gesture.current.dragged && Math.hypot(now.x - gesture.current.startX, now.y - gesture.current.startY) < DRAG_THRESHOLD) return;
      gesture.current.dragged = true;
      const k = 1 / scale;
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
    const known = pointers.current.delete(e.pointerId);
    // The tap is the finger lifting where it went down, not the click the browser may make of it:
    // Chromium makes none after a long press or a tap it takes to stop a fling, and may hold it back
    // while it waits for a double tap. A mouse taps with its main button only.
    if (!known || e.type !== 'pointerup' || pointers.current.size > 0 || gesture.current.dragged) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    gesture.current.tapped = true;
    tapAt(e.clientX, e.clientY);
  };

  const choose = (loc: Loc): void => {
    setCaption(provinceOf(loc));
    onTap?.(loc);
  };
  // A click the pointer's lifting has not already taken (a pointer event never reached the map,
  // e.g. an assistive technology's activation): resolved as a tap too.
  const onClick = (e: ReactMouseEvent<SVGSVGElement>): void => {
    const { dragged, tapped } = gesture.current;
    gesture.current.tapped = false;
    if (dragged || tapped) return; // the end of a pan or pinch is not a tap; a tap counts once
    tapAt(e.clientX, e.clientY);
  };
  // One resolver for every tap on the map: the finger's point, resolved.
  const tapAt = (clientX: number, clientY: number): void => {
    const at = toMap(clientX, clientY);
    const loc = resolveTap(at, {
      scale,
      units: [...position.units.map((u) => ({ loc: u.loc, at: locPoint(u.loc) })), ...dislodgedUnits.map((u) => ({ loc: u.loc, at: dislodgedAt(u.loc) }))],
      targets: targetList,
    });
    if (loc !== null) choose(loc);
  };

  const entry: ProvinceId = focusId ?? (selected ? provinceOf(selected) : undefined) ?? props.keyStart ?? 'par';
  const focusProvince = (id: ProvinceId): void => {
    setFocusId(id);
    setCaption(id);
    const spot = PROVINCE_ART[id]!.unit;
    setView((v) => showPoint(v, spot.x, spot.y));
    svgRef.current?.querySelector<SVGGElement>(`[data-province="${id}"]`)?.focus();
  };
  const onKey = (id: ProvinceId) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(id);
    } else if (isArrow(e.key)) {
      e.preventDefault();
      focusProvince(neighbourInDirection(id, e.key));
    } else if (e.key === 'Escape' && props.onEscape) {
      e.preventDefault();
      props.onEscape();
    }
  };

  const glyphs = orderGlyphs(orders, results);
  const marks = results ? resultMarks(results) : [];
  const labelPx = Math.min(LABEL_MAX_PX, Math.max(LABEL_MIN_PX, LABEL_SIZE * scale));
  const labelSize = labelPx / scale;
  const showLabels = labelSize <= LABEL_SIZE * LABEL_GROWTH;
  const captionName = caption ? (STANDARD_MAP.provinces[caption]?.name[lang] ?? caption) : '';

  return (
    <div className="board">
      <div className="board-frame">
        <svg
          ref={svgRef}
          viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`}
          role="group"
          aria-label={t.mapLabel}
          aria-describedby={hintId}
          className="board-svg"
          data-scale={scale.toFixed(3)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
          onPointerLeave={onPointerEnd}
          onClick={onClick}
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
            const map = props.map ?? STANDARD_MAP;
            const province = map.provinces[id];
            const kind = province?.kind ?? 'land';
            const closed =
              map.armyEdges[id] === undefined && map.fleetEdges[id] === undefined && (STANDARD_MAP.armyEdges[id] ?? STANDARD_MAP.fleetEdges[id]) !== undefined;
            const owner = position.centres[id];
            const unit = unitAt.get(id);
            const name = province?.name[lang] ?? id;
            const out = dislodgedUnits.find((u) => provinceOf(u.loc) === id);
            const label = [name, unit ? `: ${unitLabel(unit, lang)}` : '', out ? `; ${unitLabel(out, lang)} (${t.dislodged})` : ''].join('');
            const passable = kind !== 'impassable';
            const cls = [
              'province',
              kind === 'sea' ? 'sea' : kind === 'impassable' ? 'impassable' : 'land',
              closed ? 'closed' : '',
              targetProvinces.has(id) ? 'target' : '',
            ]
              .join(' ')
              .replace(/ +/g, ' ')
              .trim();
            return (
              <g
                key={id}
                className={cls}
                data-province={id}
                data-x={art.unit.x}
                data-y={art.unit.y}
                {...(passable
                  ? { role: 'button', tabIndex: id === entry ? 0 : -1, 'aria-label': label, onKeyDown: onKey(id), onFocus: () => setFocusId(id) }
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
          {showLabels ? (
            <g className="labels" style={{ fontSize: `${labelSize}px` }}>
              {PROVINCE_IDS.map((id) => {
                const art = PROVINCE_ART[id]!;
                return (
                  <text key={id} x={art.label.x} y={art.label.y} className={`label ${STANDARD_MAP.provinces[id]?.kind === 'sea' ? 'sea' : 'land'}`}>
                    {mapLabel(id, lang)}
                  </text>
                );
              })}
            </g>
          ) : null}
          {PROVINCE_IDS.filter((id) => PROVINCE_ART[id]!.centre).map((id) => {
            const c = PROVINCE_ART[id]!.centre!;
            const owner = position.centres[id];
            return (
              <circle
                key={id}
                cx={c.x}
                cy={c.y}
                r={3.6}
                className="centre"
                data-centre={id}
                data-owner={owner ?? ''}
                style={{ fill: owner ? POWER_COLOURS[owner] : '#ffffff' }}
              >
                <title>{`${STANDARD_MAP.provinces[id]?.name[lang] ?? id}: ${t.supplyCentre}${owner ? `, ${t.powers[owner]}` : ''}`}</title>
              </circle>
            );
          })}
          {PROVINCE_IDS.flatMap((id) =>
            Object.entries(PROVINCE_ART[id]!.coasts ?? {}).map(([coast, p]) => {
              const loc = `${id}/${coast}`;
              const name = `${STANDARD_MAP.provinces[id]?.name[lang] ?? id} (${coastName(coast as Coast, lang)})`;
              return (
                <circle key={loc} cx={p.x} cy={p.y} r={5} className={targets.has(loc) ? 'coast target' : 'coast'} data-loc={loc}>
                  <title>{name}</title>
                </circle>
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
              const label = `${unitLabel(u, lang)} (${t.dislodged}): ${STANDARD_MAP.provinces[provinceOf(u.loc)]?.name[lang] ?? u.loc}`;
              return (
                <UnitPiece
                  key={`d-${u.loc}`}
                  type={u.type}
                  power={u.power}
                  at={dislodgedAt(u.loc)}
                  initials={t.powerInitials[u.power]}
                  dislodged
                  label={label}
                />
              );
            })}
          </g>
          <g className="marks">
            {marks.map((m, i) => (
              <MarkShape key={i} m={m} lang={lang} />
            ))}
          </g>
        </svg>
      </div>
      <div className="board-bar" role="toolbar" aria-label={t.mapTools}>
        <p className="board-caption" data-caption={caption ?? ''}>
          {captionName}
        </p>
        <button
          type="button"
          className="secondary"
          aria-label={t.zoomOut}
          title={t.zoomOut}
          data-action="zoom-out"
          onClick={() => setView((v) => zoomCentre(v, 1 / 1.5))}
        >
          −
        </button>
        <button
          type="button"
          className="secondary"
          aria-label={t.zoomIn}
          title={t.zoomIn}
          data-action="zoom-in"
          onClick={() => setView((v) => zoomCentre(v, 1.5))}
        >
          +
        </button>
        <button type="button" className="secondary" aria-label={t.zoomReset} title={t.zoomReset} data-action="zoom-reset" onClick={() => setView(FULL_VIEW)}>
          ⤢
        </button>
      </div>
      <p id={hintId} className="visually-hidden">
        {t.mapKeysHint}
      </p>
    </div>
  );
}
