// `npm run fuzz [cases] [seed]`: the fuzz of tests/fuzz/harness.ts at scale (10^6 cases by default),
// printing the count and the time. Exits 1 on the first failures found.
import fc from 'fast-check';
import { fixture, fuzz } from '../tests/fuzz/harness';
import { checkCase, lateScenario } from '../tests/protocol/late-entries';

// `npm run fuzz -- interleave [cases] [seed]`: tests/protocol/interleave.test.ts's property of late,
// replayed and older-version entries (four readers following live, a cold re-read) at scale.
if (process.argv[2] === 'interleave') {
  const runs = Number(process.argv[3] ?? 1000);
  const seed = Number(process.argv[4] ?? 1);
  const started = performance.now();
  const s = lateScenario(3160);
  const order = fc.array(fc.nat(), { minLength: s.entries.length, maxLength: s.entries.length });
  const out = fc.check(
    fc.property(fc.boolean(), fc.array(order, { minLength: 4, maxLength: 4 }), (causal, orders) => checkCase(s, orders, causal).length === 0),
    { numRuns: runs, seed },
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz interleave: ${out.numRuns} cases in ${seconds.toFixed(1)} s, seed ${seed}, ${out.failed ? 'FAILED' : '0 failures'}`);
  if (out.failed) console.log(fc.defaultReportMessage(out));
  process.exit(out.failed ? 1 : 0);
}

const cases = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);
const perEpisode = 100;
const episodes = Math.ceil(cases / perEpisode);
const started = performance.now();
let reported = 0;
const result = await fuzz({
  seed,
  episodes,
  casesPerEpisode: perEpisode,
  fixture: fixture(seed),
  onEpisode: (done, n) => {
    const t = (performance.now() - started) / 1000;
    if (t - reported >= 30 || done === episodes) {
      reported = t;
      console.log(`fuzz: ${n.toLocaleString('en')} cases, ${t.toFixed(0)} s`);
    }
  },
});
const seconds = (performance.now() - started) / 1000;
console.log(
  `fuzz: ${result.cases.toLocaleString('en')} cases in ${seconds.toFixed(1)} s (${((seconds * 1e6) / result.cases).toFixed(0)} µs a case), seed ${seed}, ${result.failures.length} failures`,
);
for (const f of result.failures.slice(0, 20)) console.log(`  ${f}`);
process.exit(result.failures.length === 0 ? 0 : 1);
