// The board after a phase, with units gliding from where they stood to where they stand now
// (FLIP: drawn at the new spot, shifted back to the old one, then released). Bounces, cut supports
// and dislodgements come from the Board's results overlay. Skipped under prefers-reduced-motion.
import { useLayoutEffect, useRef } from 'react';
import type { Position } from '../../../rules';
import type { ResolvedPhase } from '../../../protocol';
import type { Lang } from '../../i18n';
import { Board } from '../../map/Board';
import { locPoint } from '../../map/geometry';
import { builtUnits, unitMoves } from './logic';

const GLIDE_MS = 900;

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function AnimatedBoard(props: { phase: ResolvedPhase; after: Position; lang: Lang; replay: number }) {
  const { phase, after, lang, replay } = props;
  const ref = useRef<HTMLDivElement>(null);
  const moves = unitMoves(phase, after);
  const built = builtUnits(phase, after);

  useLayoutEffect(() => {
    const root = ref.current;
    if (!root || reducedMotion()) return;
    const pieces = root.querySelectorAll<SVGGElement>('.units > .unit');
    const touched: SVGGElement[] = [];
    for (const m of moves) {
      const el = pieces[m.index];
      if (!el) continue;
      const a = locPoint(m.from);
      const b = locPoint(m.to);
      el.style.transition = 'none';
      el.style.translate = `${a.x - b.x}px ${a.y - b.y}px`;
      touched.push(el);
    }
    for (const i of built) {
      const el = pieces[i];
      if (!el) continue;
      el.style.transition = 'none';
      el.style.opacity = '0';
      touched.push(el);
    }
    root.dataset.animating = touched.length > 0 ? 'yes' : 'no';
    // Two frames: the first paints the old spots, the second starts the glide from them.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        for (const el of touched) {
          el.style.transition = `translate ${GLIDE_MS}ms ease-in-out, opacity ${GLIDE_MS}ms ease-in`;
          el.style.translate = '0px 0px';
          el.style.opacity = '1';
        }
      });
    });
    const done = setTimeout(() => {
      if (root) root.dataset.animating = 'done';
    }, GLIDE_MS + 100);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(done);
    };
    // Runs once per phase shown and per replay; moves are derived from those.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase.key, replay]);

  return (
    <div ref={ref} className="animated-board" data-phase={phase.key} data-moves={moves.length}>
      <Board position={after} lang={lang} orders={phase.results.map((r) => r.order)} results={phase.results} />
    </div>
  );
}
