// Shape check for orders read out of a sealed box: the rules engine judges legality, but it
// must only ever see well-formed Order values.
import { POWERS, type Order } from '../rules';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isLoc = (v: unknown): boolean => typeof v === 'string' && v.length > 0 && v.length <= 8;
const isUnitRef = (v: unknown): boolean => isRecord(v) && (v.type === 'A' || v.type === 'F') && isLoc(v.loc) && Object.keys(v).length === 2;

const FIELDS: Record<Order['kind'], Record<string, (v: unknown) => boolean>> = {
  hold: { unit: isUnitRef },
  move: { unit: isUnitRef, to: isLoc, viaConvoy: (v) => v === undefined || typeof v === 'boolean' },
  support: { unit: isUnitRef, supported: isUnitRef, to: (v) => v === undefined || isLoc(v) },
  convoy: { unit: isUnitRef, army: isLoc, to: isLoc },
  retreat: { unit: isUnitRef, to: isLoc },
  disband: { unit: isUnitRef },
  build: { unit: isUnitRef },
  remove: { unit: isUnitRef },
  waive: {},
};

export const MAX_ORDERS = 64;

export function checkOrder(v: unknown): v is Order {
  if (!isRecord(v) || typeof v.kind !== 'string' || !Object.hasOwn(FIELDS, v.kind)) return false;
  if (!(POWERS as readonly unknown[]).includes(v.power)) return false;
  const fields = FIELDS[v.kind as Order['kind']];
  return Object.keys(v).every((k) => k === 'kind' || k === 'power' || k in fields) && Object.entries(fields).every(([k, c]) => c(v[k]));
}

export function checkOrders(v: unknown): Order[] | null {
  return Array.isArray(v) && v.length <= MAX_ORDERS && v.every(checkOrder) ? (v as Order[]) : null;
}
