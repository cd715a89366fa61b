// Seven phones, each with its own Y.Doc, exchanging Yjs updates with random delays; one phone
// goes offline for several phases and catches up. Every phone must see the same game at every
// phase, and the final board must be the rules engine's own.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { adjudicate, POWERS, randomOrders, STARTING_POSITION, type Order, type Power } from '../../src/rules';
import { acknowledge, ballotDuties, canonicalEncode, reduceLog, stateHash, timeoutsDue, voteTimeout, type GameView } from '../../src/protocol';
import { rng, startedGame, T0, type Phone } from './helpers';

const MINUTE = 60_000;
const LAST_YEAR = 1910;

interface Replica {
  readonly phone: Phone;
  readonly doc: Y.Doc;
  readonly log: Y.Array<Uint8Array>;
  online: boolean;
  dirty: boolean;
  view?: GameView;
  readonly seenHashes: Map<string, string>;
  readonly committedIn: Set<string>;
  readonly resealed: Set<string>;
  readonly acked: Set<string>;
  readonly voted: Map<string, string>;
}

describe('seven phones on Yjs', () => {
  it('agree at every phase through ten years, with one phone offline for a while', () => {
    const game = startedGame(31, {
      deadlines: { movement: 30 * MINUTE, retreat: 30 * MINUTE, adjustment: 30 * MINUTE, lot: 30 * MINUTE, reveal: 10 * MINUTE },
    });
    const net = rng(32);
    const inFlight: { at: number; to: number; update: Uint8Array }[] = [];
    const held: { to: number; update: Uint8Array }[] = [];
    let tick = 0;
    let draining = false;

    const replicas: Replica[] = game.phones.map((phone) => {
      const doc = new Y.Doc();
      return {
        phone,
        doc,
        log: doc.getArray<Uint8Array>('log'),
        online: true,
        dirty: true,
        seenHashes: new Map(),
        committedIn: new Set(),
        resealed: new Set(),
        acked: new Set(),
        voted: new Map(),
      };
    });
    replicas.forEach((r, i) => {
      r.doc.on('update', (update: Uint8Array, origin: unknown) => {
        r.dirty = true;
        if (origin === 'net') return;
        replicas.forEach((_, j) => {
          if (j !== i) inFlight.push({ at: tick + 1 + net.int(3), to: j, update });
        });
      });
    });
    // The lobby happened before the game: everyone starts from the creator's document.
    replicas[0]!.log.push(game.log);
    const lobby = Y.encodeStateAsUpdate(replicas[0]!.doc);
    for (const r of replicas.slice(1)) Y.applyUpdate(r.doc, lobby, 'net');
    inFlight.length = 0;

    const sealedOrders = new Map<string, Order[]>();
    const offlinePower: Power = 'italy';
    const offline = replicas[POWERS.indexOf(offlinePower)]!;
    let offlineFrom: string | undefined;
    let offlinePhases = 0;
    const refresh = (r: Replica) => {
      if (!r.dirty && r.view) return r.view;
      r.view = reduceLog(game.gameId, r.log.toArray());
      r.dirty = false;
      for (const ph of r.view.phases) {
        const had = r.seenHashes.get(ph.key);
        if (had !== undefined) expect(had, `${r.phone.power} rewrote ${ph.key}`).toBe(ph.stateHash);
        r.seenHashes.set(ph.key, ph.stateHash);
      }
      return r.view;
    };

    for (; tick < 5000; tick++) {
      const now = T0 + tick * MINUTE;
      for (const m of inFlight.filter((f) => f.at <= tick)) {
        if (replicas[m.to]!.online) Y.applyUpdate(replicas[m.to]!.doc, m.update, 'net');
        else held.push(m);
      }
      for (let i = inFlight.length - 1; i >= 0; i--) if (inFlight[i]!.at <= tick) inFlight.splice(i, 1);

      const lead = refresh(replicas[0]!);
      const key = lead.current?.key;
      // Italy drops off the network in Spring 1903 and comes back four phases later.
      if (key === '1903-spring-movement' && offlineFrom === undefined) {
        offline.online = false;
        offlineFrom = key;
      }
      if (
        !offline.online &&
        offlineFrom !== undefined &&
        lead.phases.length - lead.phases.findIndex((p) => p.key === offlineFrom) >= 4 &&
        lead.phases.some((p) => p.key === offlineFrom)
      ) {
        offline.online = true;
        for (const h of held.splice(0)) Y.applyUpdate(offline.doc, h.update, 'net');
        // Catch up both ways with state vectors, as y-webrtc does on reconnect.
        for (const r of replicas) if (r !== offline) Y.applyUpdate(offline.doc, Y.encodeStateAsUpdate(r.doc, Y.encodeStateVector(offline.doc)), 'net');
      }
      if (!offline.online) offlinePhases = Math.max(offlinePhases, lead.phases.length - lead.phases.findIndex((p) => p.key === offlineFrom));

      if ((lead.current?.position.phase.year ?? Infinity) > LAST_YEAR || lead.status === 'finished') draining = true;
      if (draining && offline.online && inFlight.length === 0) break;
      for (const r of replicas) {
        if (!r.online || draining) continue;
        const v = refresh(r);
        if (v.status !== 'playing' || v.current === undefined) continue;
        const c = v.current;
        const me = r.phone.power;
        for (const ph of v.phases) {
          if (r.acked.has(ph.key)) continue;
          r.acked.add(ph.key);
          r.log.push([acknowledge(r.phone.me, game.gameId, ph.key, ph.stateHash, r.phone.stamp(now)).bytes]);
        }
        const pick = rng(tick * 7 + POWERS.indexOf(me)).int;
        // Commit once, and now and then re-seal (changing one's mind) while the phase is open.
        const reseal = r.committedIn.has(c.key) && !c.finalized.includes(me) && !r.resealed.has(c.key) && pick(8) === 0;
        if (c.required.includes(me) && !c.timedOut.includes(me) && (!r.committedIn.has(c.key) || reseal)) {
          const orders = randomOrders(c.position, me, pick);
          const commit = r.phone.commit(game.gameId, v, orders, now);
          r.log.push([commit.bytes]);
          if (r.committedIn.has(c.key)) r.resealed.add(c.key);
          r.committedIn.add(c.key);
          sealedOrders.set(commit.id, orders);
          continue;
        }
        // The automatic steps: FINAL, LOCK, REVEAL, each as soon as it is due.
        const log = r.log.toArray();
        const steps = ballotDuties(v, r.phone.me.id);
        if (steps.finals.length > 0 || steps.lock || steps.reveal) {
          const signed =
            steps.finals.length > 0
              ? r.phone.final(game.gameId, v, now)
              : steps.lock
                ? r.phone.lock(game.gameId, v, log, now)
                : r.phone.reveal(game.gameId, v, log, now);
          r.log.push([signed.bytes]);
          continue;
        }
        const due = timeoutsDue(v, me, now);
        const voteKey = `${c.key}:${due.join(',')}`;
        if (due.length > 0 && r.voted.get(c.key) !== voteKey) {
          r.voted.set(c.key, voteKey);
          r.log.push([voteTimeout(r.phone.me, game.gameId, c.key, due, r.phone.stamp(now)).bytes]);
        }
      }
    }

    const views = replicas.map(refresh);
    const reference = canonicalEncode(views[0]!);
    for (const v of views) expect(canonicalEncode(v)).toEqual(reference);
    const final = views[0]!;
    expect(final.status === 'finished' || final.current!.position.phase.year > LAST_YEAR).toBe(true);
    // Ten years played: every spring and fall of 1901 to 1910 resolved (how many retreats and
    // adjustments come with them depends on the random orders, drawn at the tick each phone seals).
    if (final.status !== 'finished')
      for (let year = 1901; year <= LAST_YEAR; year++)
        for (const season of ['spring', 'fall']) expect(final.phases.map((p) => p.key)).toContain(`${year}-${season}-movement`);
    expect(offlinePhases).toBeGreaterThanOrEqual(4);
    expect(final.phases.some((p) => p.timedOut.includes(offlinePower))).toBe(true);
    expect(final.hashMismatches).toEqual([]);
    expect(final.ignored).toEqual([]);
    expect(final.misconduct).toEqual([]);
    for (const r of replicas) expect([...r.seenHashes]).toEqual(final.phases.map((p) => [p.key, p.stateHash]));

    // The rules engine alone, fed the orders each phone sealed in the commits that counted (a
    // timed-out power's escrowed commit still counts; powers without one are in civil disorder).
    let position = STARTING_POSITION;
    expect(replicas.some((r) => r.resealed.size > 0)).toBe(true);
    for (const ph of final.phases) {
      expect(ph.key).toBe(`${position.phase.year}-${position.phase.season}-${position.phase.kind}`);
      for (const p of POWERS) if (ph.commits[p] !== undefined) expect(sealedOrders.has(ph.commits[p]!)).toBe(true);
      const orders = POWERS.filter((p) => !ph.civilDisorder.includes(p)).flatMap((p) => sealedOrders.get(ph.commits[p] ?? '') ?? []);
      for (const p of ph.timedOut) if (ph.commits[p] === undefined) expect(ph.civilDisorder).toContain(p);
      position = adjudicate(position, orders, { civilDisorder: ph.civilDisorder }).next;
      expect(stateHash(position)).toBe(ph.stateHash);
    }
    expect(canonicalEncode(position)).toEqual(canonicalEncode(final.position));
    // Synchronous, so a timeout cannot stop it, only fail it afterwards: 25-57 s in fresh-clone
    // runs beside other suites, 133 s at a load average of 19. The bound is for a real hang only.
  }, 600_000);
});
