// Army and fleet pieces: a shape per unit type and the power's initials, so neither colour nor
// shape alone carries the meaning.
import type { Power, UnitType } from '../../rules';
import type { Point } from './art';
import { POWER_COLOURS, POWER_INK } from './colours';

/** A dislodged unit stands beside its province and is tapped on itself (`label` and `onTap` given). */
export function UnitPiece(props: { type: UnitType; power: Power; at: Point; initials: string; dislodged?: boolean; label?: string; onTap?: () => void }) {
  const { type, power, at, initials, onTap } = props;
  const fill = POWER_COLOURS[power];
  const interactive = onTap
    ? {
        role: 'button',
        tabIndex: 0,
        'aria-label': props.label,
        onClick: onTap,
        onKeyDown: (e: { key: string; preventDefault(): void }) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onTap();
          }
        },
      }
    : {};
  return (
    <g
      transform={`translate(${at.x},${at.y})`}
      className={props.dislodged ? 'unit dislodged' : 'unit'}
      data-unit-type={type}
      data-power={power}
      {...interactive}
    >
      {props.dislodged ? <circle r={12} className="dislodged-ring" /> : null}
      {type === 'A' ? (
        <circle r={8.5} fill={fill} className="piece" />
      ) : (
        <>
          <path d="M-2,-4 L-2,-14 L8,-4 Z" fill={fill} className="piece" />
          <path d="M-12,-4 L12,-4 L8,7 L-8,7 Z" fill={fill} className="piece" />
        </>
      )}
      <text y={type === 'A' ? 2.6 : 4.4} fill={POWER_INK[power]} className="initials">
        {initials}
      </text>
    </g>
  );
}
