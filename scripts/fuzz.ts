// `npm run fuzz [cases] [seed]`: the fuzz of tests/fuzz/harness.ts at scale (10^6 cases by default),
// printing the count and the time. Exits 1 on the first failures found.
import { fixture, fuzz } from '../tests/fuzz/harness';

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
