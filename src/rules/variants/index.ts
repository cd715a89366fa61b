// Variants: player counts, the "1914" rule set, the two-player toss for Italy, victory by seat
// or alliance. Re-exported through src/rules/index.ts.
export type { Seat, Text as VariantText, Variant, VariantPhase, VariantRules, Victory, ItalyToss } from './types';
export { VARIANTS, variantById } from './registry';
export { VARIANT_NAMES, variantName, type VariantId } from './names';
export { ITALIAN_PROVINCES, ITALY_CLOSED_MAP, closeProvinces } from './italy';
export { variantPhase, tossTakenEffect, isTossPhase, type VariantPhaseSetup } from './phase';
export { variantWinners, allianceWinners, fullYearsStood, type Alliance } from './victory';
export { missingOrders } from './orders';
