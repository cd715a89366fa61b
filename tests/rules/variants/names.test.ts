// The variant names the home screen reads without the rules engine (variants/names.ts) are the
// registry's own: one entry per variant, the same object, and no name for a variant that is gone.
import { expect, it } from 'vitest';
import { VARIANTS, VARIANT_NAMES, variantById, variantName } from '../../../src/rules';

it('every variant of the registry takes its name from the names table, and nothing else is in it', () => {
  expect(Object.keys(VARIANT_NAMES).sort()).toEqual(VARIANTS.map((v) => v.id).sort());
  for (const v of VARIANTS) {
    expect(variantName(v.id), v.id).toBe(v.name);
    expect(v.name.es.length, v.id).toBeGreaterThan(0);
    expect(v.name.en.length, v.id).toBeGreaterThan(0);
  }
});

it('an id this build does not know has no name', () => {
  for (const id of ['', 'nope', 'toString', '__proto__', 'constructor']) {
    expect(variantName(id), id).toBeUndefined();
    expect(variantById(id), id).toBeUndefined();
  }
});
