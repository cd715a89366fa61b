// Dev-only harness for the in-game screens: one phone of a fake game (real protocol messages,
// see fake-world.ts) rendered by GameScreen. Pages of one browser context share the log over a
// BroadcastChannel, so two tabs are two players. Query: as (phone 1 England, 2 France), lang,
// played (phases played before), at (hours after the phase opened), gunboat, bots=0 (another
// page drives the bots), solo (England is a bot), endYear; practice=<position JSON> shows the
// practice board on that position instead (a mid-game board for the map's tap tests);
// until=retreat|adjustment plays on (every power random) until such a phase opens; opening plays
// 1901 by OPENING_1901 instead of at random (a winter that does not hang on the protocol's bytes);
// relay: the phone has one relay, connected, and harness.setRelayWaiting(n) says n uploads wait for it.
// harness.seal(power) seals random orders for another phone's power now (with bots=0: one at a time).
// harness.setNet({ peers, synced, online }) changes the peer network the header shows.
// harness.misreport(phone) has that phone ACK a wrong state hash of the last resolved phase now (a warning).
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { acknowledge, fromBase64, messageId, toBase64 } from '../../../../src/protocol';
import { POWERS, randomOrders, type Power } from '../../../../src/rules';
import { GameScreen } from '../../../../src/ui/game/screens/GameScreen';
import { PracticeBoard } from '../../../../src/ui/practice/PracticeBoard';
import type { Position } from '../../../../src/rules';
import type { Lang } from '../../../../src/ui/i18n';
import '../../../../src/ui/styles.css';
import { FakeWorld, HOUR, OPENING_1901, T0, THREE_PHONES, fakeSession, newPhoneState } from './fake-world';

const q = new URLSearchParams(location.search);
const as = Number(q.get('as') ?? 2);
const lang: Lang = q.get('lang') === 'en' ? 'en' : 'es';
const played = Number(q.get('played') ?? 0);
// variant=<id>: seven phones, one power each, every other phone a bot (variants with one power a seat).
const variant = q.get('variant');
const seven = variant !== null ? { variant, holdings: POWERS.map((p) => [p]) } : {};
// solo: England is a bot too, so one page plays the whole game.
const bots = variant !== null ? POWERS.map((_, i) => i).filter((i) => i !== as) : q.has('solo') ? [0, 1] : [0];
const scenario = {
  ...THREE_PHONES,
  ...seven,
  bots,
  played,
  gunboat: q.has('gunboat'),
  endYear: q.has('endYear') ? Number(q.get('endYear')) : null,
  ...(q.has('opening') ? { script: OPENING_1901 } : {}),
};
const drives = q.get('bots') === '0' ? [as] : [...new Set([...bots, as])];
const world = new FakeWorld(scenario, drives);
const until = q.get('until');
let extra = 0;
while (until !== null && world.view().current !== undefined && world.view().current!.position.phase.kind !== until && extra < 60) {
  world.playAll(T0 + (played + 1 + extra) * HOUR);
  extra++;
}
const startedAt = Date.now();
const base = T0 + (played + 1 + extra) * HOUR + Number(q.get('at') ?? 0) * HOUR;
const clock = (): number => base + (Date.now() - startedAt);
world.clock = clock;
const state = newPhoneState();
document.documentElement.lang = lang;

// Page-to-page sync: every entry is passed on once; a new page asks for everything.
const channel = new BroadcastChannel(`pacto-screens-${scenario.seed}`);
const seen = new Set(world.log.map((b) => (b.length > 64 ? messageId(b) : '')));
let sent = world.log.length;
const passOn = (): void => {
  const fresh = world.log.slice(sent).filter((b) => !seen.has(messageId(b)));
  sent = world.log.length;
  for (const b of fresh) seen.add(messageId(b));
  if (fresh.length > 0) channel.postMessage({ entries: fresh.map(toBase64) });
};
channel.onmessage = (e: MessageEvent<{ entries?: string[]; hello?: boolean }>) => {
  if (e.data.hello) {
    channel.postMessage({ entries: world.log.map(toBase64) });
    return;
  }
  const fresh = (e.data.entries ?? []).map((t) => fromBase64(t)).filter((b): b is Uint8Array => b !== null && !seen.has(messageId(b)));
  if (fresh.length === 0) return;
  for (const b of fresh) seen.add(messageId(b));
  world.receive(fresh);
};
channel.postMessage({ hello: true });

/** Set by Harness once mounted (the `relay` query): how many of this phone's uploads wait for the relay. */
let setRelayWaiting: (n: number) => void = () => undefined;
/** Set by Harness once mounted: the peer network as the header shows it (harness.setNet). */
let setNet: (net: { peers: number; synced: boolean; online: boolean }) => void = () => undefined;

function Harness() {
  const [, setTick] = useState(0);
  const [relayWaiting, setWaiting] = useState(0);
  const [peerNet, setPeerNet] = useState({ peers: 2, synced: true, online: true });
  useEffect(() => {
    setRelayWaiting = setWaiting;
    setNet = setPeerNet;
  }, []);
  const [now, setNow] = useState(clock);
  useEffect(
    () =>
      world.onChange(() => {
        passOn();
        setTick((n) => n + 1);
      }),
    [],
  );
  useEffect(() => {
    const id = setInterval(() => setNow(clock()), 1000);
    return () => clearInterval(id);
  }, []);
  const net = q.has('relay') ? { peers: 0, synced: false, online: true, relays: { total: 1, connected: 1, caughtUp: 1, waiting: relayWaiting } } : peerNet;
  const session = fakeSession(world, as, state, now, () => setTick((n) => n + 1), net);
  return (
    <div className="app" lang={lang}>
      <div className="toolbar dev-tools" aria-label="harness">
        <button type="button" className="secondary small" data-dev="bots-draw" onClick={() => world.botsVoteDraw(clock())}>
          {lang === 'es' ? 'Bots: votar tablas' : 'Bots: vote draw'}
        </button>
      </div>
      <GameScreen session={session} lang={lang} />
    </div>
  );
}

const practice = q.get('practice');
const root = document.getElementById('root');
if (root && practice !== null) {
  createRoot(root).render(
    <StrictMode>
      <div className="app" lang={lang}>
        <PracticeBoard start={JSON.parse(practice) as Position} lang={lang} />
      </div>
    </StrictMode>,
  );
} else if (root)
  createRoot(root).render(
    <StrictMode>
      <Harness />
    </StrictMode>,
  );
/** Another phone seals random orders for `power` now, as its owner would. */
const seal = (power: Power): void => {
  const i = world.phones.findIndex((ph) => ph.powers.includes(power));
  const c = world.view().current;
  if (i < 0 || !c) throw new Error(`nobody seals ${power} now`);
  world.commit(i, power, randomOrders(c.position, power, world.phones[i]!.random.int), clock());
  world.append(null, clock());
};
/** Phone `i` claims a wrong state hash for the last resolved phase: every phone shows a hash-mismatch warning. */
const misreport = (i: number): void => {
  const ph = world.phones[i];
  const last = world.view().phases.at(-1);
  if (!ph || !last) throw new Error('no phone or no resolved phase to misreport');
  world.append(acknowledge(ph.me, world.gameId, last.key, '0'.repeat(32), ph.stamp(clock())).bytes, clock());
};
(window as unknown as { harness: unknown }).harness = {
  world,
  state,
  phone: as,
  setRelayWaiting: (n: number) => setRelayWaiting(n),
  setNet: (n: { peers: number; synced: boolean; online: boolean }) => setNet(n),
  seal,
  misreport,
};
