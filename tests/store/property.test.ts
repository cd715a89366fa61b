// Any interleaving of appends from two connections, compactions and reloads keeps every
// log entry: what was flushed is what a fresh open reads.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Y from 'yjs';
import { persistDoc, type PactoStore } from '../../src/store';
import { newProfile } from './helpers';

type Step = { kind: 'push'; tab: 0 | 1; n: number } | { kind: 'compact'; tab: 0 | 1 } | { kind: 'reload'; tab: 0 | 1 };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('push' as const), tab: fc.constantFrom(0 as const, 1 as const), n: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), tab: fc.constantFrom(0 as const, 1 as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reload' as const), tab: fc.constantFrom(0 as const, 1 as const) }) },
);

interface Tab {
  store: PactoStore;
  doc: Y.Doc;
  handle: ReturnType<typeof persistDoc>;
}

describe('store properties', () => {
  it('never loses a flushed entry, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.integer({ min: 2, max: 12 }), async (steps, compactAfter) => {
        const profile = newProfile();
        const open = async (): Promise<Tab> => {
          const store = await profile.open();
          const doc = new Y.Doc();
          const handle = persistDoc(store, 'g', doc, { compactAfter });
          await handle.ready;
          return { store, doc, handle };
        };
        const tabs: Tab[] = [await open(), await open()];
        const written = new Set<string>();
        let counter = 0;
        const pending: Promise<unknown>[] = [];
        for (const s of steps) {
          const tab = tabs[s.tab]!;
          if (s.kind === 'push') {
            for (let i = 0; i < s.n; i++) {
              const id = `e${counter++}`;
              tab.doc.getArray('log').push([id]);
              written.add(id);
            }
          } else if (s.kind === 'compact') {
            pending.push(tab.handle.compact()); // deliberately not awaited: runs alongside later steps
          } else {
            await Promise.all(pending.splice(0));
            await tab.handle.destroy();
            tab.store.close();
            tabs[s.tab] = await open();
          }
        }
        await Promise.all(pending);
        for (const t of tabs) {
          await t.handle.destroy();
          t.store.close();
        }
        const check = await open();
        const read = new Set(check.doc.getArray<string>('log').toArray());
        await check.handle.destroy();
        check.store.close();
        expect(read).toEqual(written);
      }),
      { numRuns: 40 },
    );
  });
});
