import { describe, expect, it } from 'vitest';
import { CARDS, SETUP, UNITS } from '../../../src/games/pog/data';
import { apply, legalChoices, mayOfferPeace, playModes, rollMandated, rpGain, toAct, type Choice } from '../../../src/games/pog/sequence';
import { newGame, type PogState } from '../../../src/games/pog/state';
import { picker } from '../../../src/util/prng';

const mob = (side: 'ap' | 'cp') => CARDS.filter((c) => c.side === side && c.commitment === 'mobilization').map((c) => c.id);

/** A game as the extended example opens it: the Central Powers keep Guns of August. */
function opening(scenario: PogState['scenario'] = 'campaign', ap = mob('ap').slice(0, 7), cp = mob('cp').slice(1, 7)): PogState {
  return newGame(scenario, { gunsOfAugust: true, deal: { ap, cp } });
}

/** The same state with some fields changed, for positions the built rules cannot reach yet. */
const withState = (s: PogState, change: Partial<PogState>): PogState => ({ ...s, ...change });

describe('a new game (4.0)', () => {
  it('places the set-up, deals the hands and sets the markers', () => {
    const s = opening();
    const onMap = Object.values(s.units).filter((u) => u.at !== 'offboard');
    expect(onMap).toHaveLength(SETUP.flatMap((p) => [...(p.units ?? []), ...(p.reduced ?? [])]).length);
    expect(Object.keys(s.units)).toHaveLength(UNITS.length);
    expect(s.units['fr-9-army']).toEqual({ at: 'bar-le-duc', reduced: true });
    expect(s.units['ge-8-army']).toEqual({ at: 'insterberg', reduced: false });
    expect(s.units['tu-corps-1']).toEqual({ at: 'offboard', reduced: false });
    expect(s.units['ah-corps-3']?.at).toBe('cp-reserve');
    expect(s.trenches['metz']).toBe(1);
    expect(s.trenches['sedan']).toBeUndefined();
    expect(s.control['lodz']).toBe('ap');
    expect(s.control['tarnow']).toBe('cp');
    expect([s.vp, s.warStatus, s.combined, s.turn, s.phase]).toEqual([10, { ap: 0, cp: 0 }, 0, 1, 'mandated-offensives']);
    expect(s.decks.cp.hand).toHaveLength(7);
    expect(s.decks.cp.hand).toContain('cp-1');
    expect(s.decks.ap.hand).toHaveLength(7);
    // Every mobilization card is in the hand or the draw pile, once.
    for (const side of ['ap', 'cp'] as const) expect([...s.decks[side].hand, ...s.decks[side].draw].sort()).toEqual(mob(side).sort());
  });

  it('refuses a deal of the wrong size, a card twice, or a card not among the mobilization cards', () => {
    expect(() => opening('campaign', mob('ap').slice(0, 6))).toThrow();
    expect(() => opening('campaign', undefined, mob('cp').slice(1, 8))).toThrow();
    expect(() => opening('campaign', undefined, ['cp-1', ...mob('cp').slice(2, 7)])).toThrow();
    expect(() => opening('campaign', ['ap-1', 'ap-1', 'ap-2', 'ap-3', 'ap-4', 'ap-5', 'ap-6'])).toThrow();
    expect(() => opening('campaign', ['ap-15', ...mob('ap').slice(0, 6)])).toThrow();
    // Without Guns of August kept, the Central Powers are dealt seven, which may include it.
    expect(newGame('limited', { gunsOfAugust: false, deal: { ap: mob('ap').slice(0, 7), cp: mob('cp').slice(0, 7) } }).decks.cp.hand).toContain('cp-1');
  });
});

describe('the mandated offensive phase (7.1)', () => {
  it('reads the extended example: August 1914 CP 4 Germany, Allies 2 France; September CP 1 Austria-Hungary, Allies 5 Italy (neutral: none)', () => {
    const s = opening();
    expect(legalChoices(s)).toEqual([{ kind: 'roll-mandated' }]);
    const aug = apply(s, { kind: 'roll-mandated' }, { dice: [2, 4] });
    expect(aug.mandated).toEqual({ ap: 'fr', cp: 'ge' });
    expect([aug.phase, aug.round, aug.active]).toEqual(['action', 1, 'cp']);
    expect(rollMandated(s, 5, 1)).toEqual({ ap: null, cp: 'ah' });
  });

  it("applies the table's changes: AH against Italy, neutral Turkey, Hoffmann, H-L Take Command, the Bolshevik Revolution", () => {
    const s = opening();
    expect(rollMandated(s, 6, 2)).toEqual({ ap: 'ru', cp: 'ah' });
    expect(rollMandated(withState(s, { atWar: { ...s.atWar, it: true } }), 4, 2)).toEqual({ ap: 'it', cp: 'ah-it' });
    expect(rollMandated(s, 3, 3)).toEqual({ ap: 'br', cp: null });
    expect(rollMandated(withState(s, { atWar: { ...s.atWar, tu: true } }), 1, 3)).toEqual({ ap: 'fr', cp: 'tu' });
    expect(rollMandated(withState(s, { events: ['hoffmann'] }), 1, 3)).toEqual({ ap: 'fr', cp: 'ge' });
    expect(rollMandated(withState(s, { events: ['hoffmann'] }), 1, 6)).toEqual({ ap: 'fr', cp: null });
    expect(rollMandated(withState(s, { events: ['h_l_take_command'] }), 1, 4)).toEqual({ ap: 'fr', cp: null });
    expect(rollMandated(withState(s, { events: ['bolshevik_revolution'] }), 6, 5)).toEqual({ ap: null, cp: null });
    // Italy at war but wholly held by the Central Powers: plain Austria-Hungary.
    const held = Object.fromEntries(
      Object.entries(s.control).map(
        ([id, side]) =>
          [
            id,
            [
              'turin',
              'milan',
              'genoa',
              'verona',
              'bologna',
              'florence',
              'viterbo',
              'rome',
              'naples',
              'taranto',
              'foggia',
              'pescara',
              'ancona',
              'ravenna',
              'venice',
              'udine',
              'asiago',
              'maggiore',
            ].includes(id)
              ? 'cp'
              : side,
          ] as const,
      ),
    );
    expect(rollMandated(withState(s, { atWar: { ...s.atWar, it: true }, control: held }), 1, 2).cp).toBe('ah');
  });

  it('needs two dice of 1 to 6', () => {
    const s = opening();
    expect(() => apply(s, { kind: 'roll-mandated' }, { dice: [2] })).toThrow();
    expect(() => apply(s, { kind: 'roll-mandated' }, { dice: [0, 3] })).toThrow();
    expect(() => apply(s, { kind: 'roll-mandated' }, { dice: [3, 7] })).toThrow();
  });
});

describe('the action rounds (8.1) and the ways to play a card (9.1-9.5)', () => {
  const started = () => apply(opening(), { kind: 'roll-mandated' }, { dice: [2, 4] });

  it('lets each card be played for OPS, SR, RP or its event under the general rules', () => {
    const s = started();
    expect(playModes(s, 'cp', 'cp-6')).toEqual(['ops', 'sr', 'rp', 'event']);
    // A combat card's event is played in a combat, never as the action (9.5.4.1).
    expect(playModes(s, 'cp', 'cp-2')).toEqual(['ops', 'sr', 'rp']);
    // No reinforcements in August 1914 (9.5.3.1).
    expect(playModes(s, 'cp', 'cp-7')).toEqual(['ops', 'sr', 'rp']);
    expect(playModes(withState(s, { turn: 2 }), 'cp', 'cp-7')).toEqual(['ops', 'sr', 'rp', 'event']);
    // Not in hand: no way at all.
    expect(playModes(s, 'cp', 'cp-20')).toEqual([]);
    expect(playModes(s, 'ap', 'cp-13')).toEqual([]);
  });

  it('alternates six rounds, the Central Powers first, and refuses RP twice in a row (9.4.3)', () => {
    let s = started();
    const order: string[] = [];
    for (let i = 0; i < 12; i++) {
      const side = toAct(s)!;
      order.push(`${s.round}${side}`);
      const choice = legalChoices(s).find((c) => c.kind === 'play')!;
      s = apply(s, choice);
      // Right after an RP play, the same side's next choices offer no RP play.
      if (s.phase === 'action') expect(playModes(s, side, s.decks[side].hand[0]!)).not.toContain('rp');
      if (s.phase === 'action' && toAct(s) === side) throw new Error('a side acted twice');
      if (i % 2 === 1 && s.phase === 'action') {
        // Both played RP last round: none is offered this round.
        expect(legalChoices(s).filter((c) => c.kind === 'play')).toEqual([]);
        s = { ...s, actions: { ap: [...s.actions.ap, { kind: 'ops' }], cp: [...s.actions.cp, { kind: 'ops' }] } };
      }
    }
    expect(order).toEqual(['1cp', '1ap', '2cp', '2ap', '3cp', '3ap', '4cp', '4ap', '5cp', '5ap', '6cp', '6ap']);
    expect(s.phase).toBe('attrition');
    expect(toAct(s)).toBeNull();
    expect(legalChoices(s)).toEqual([]);
  });

  it("records the replacement points the seed's example records: Falkenhayn AH 2 GE 3; Rape of Belgium A 1, FR 2, BR 2, RU 3, Italy none while neutral", () => {
    let s = started();
    expect(rpGain(s, 'cp-13')).toEqual({ ah: 2, ge: 3 });
    s = withState(s, { decks: { ...s.decks, cp: { ...s.decks.cp, hand: [...s.decks.cp.hand, 'cp-13'].sort() } } });
    const after = apply(s, { kind: 'play', card: 'cp-13', as: 'rp' });
    expect(after.rp).toMatchObject({ ah: 2, ge: 3, bu: 0, tu: 0 });
    expect(after.decks.cp.hand).not.toContain('cp-13');
    expect(after.decks.cp.discard).toEqual(['cp-13']);
    expect(after.actions.cp).toEqual([{ kind: 'rp', card: 'cp-13' }]);
    expect(rpGain(s, 'ap-13')).toEqual({ allied: 1, br: 2, fr: 2, ru: 3 });
    expect(rpGain(withState(s, { atWar: { ...s.atWar, it: true } }), 'ap-13')).toEqual({ allied: 1, br: 2, fr: 2, it: 1, ru: 3 });
    // Bulgaria and Turkey record nothing while neutral; after Over There every Allied RP card adds 1 US RP (17.1.8).
    expect(rpGain(withState(s, { atWar: { ...s.atWar, bu: true, tu: true } }), 'cp-12')).toEqual({ ah: 2, bu: 1, ge: 3, tu: 1 });
    expect(rpGain(withState(s, { events: ['over_there'] }), 'ap-8')).toEqual({ br: 1, fr: 1, ru: 1, us: 1 });
    // The input state is not changed.
    expect(s.rp.ge).toBe(0);
  });

  it('plays Italy and Romania only as events while the Central Powers are at Total War and the Allies not (9.5.2.5)', () => {
    const s = started();
    const hand = withState(s, { decks: { ...s.decks, ap: { ...s.decks.ap, hand: ['ap-16', 'ap-17', 'ap-18'] } } });
    expect(playModes(hand, 'ap', 'ap-17')).toEqual(['ops', 'sr', 'rp', 'event']);
    const total = withState(hand, { commitment: { ap: 'limited', cp: 'total' } });
    expect(playModes(total, 'ap', 'ap-17')).toEqual(['event']);
    expect(playModes(total, 'ap', 'ap-16')).toEqual(['event']);
    expect(playModes(total, 'ap', 'ap-18')).toEqual(['ops', 'sr', 'rp']);
    expect(playModes(withState(total, { commitment: { ap: 'total', cp: 'total' } }), 'ap', 'ap-17')).toEqual(['ops', 'sr', 'rp', 'event']);
    // One neutral entry per turn, for both sides (9.5.2.2); a nation at war does not enter again.
    const entered = withState(hand, { actions: { ap: [], cp: [{ kind: 'event', card: 'cp-34' }] } });
    expect(playModes(entered, 'ap', 'ap-17')).not.toContain('event');
    expect(playModes(withState(hand, { atWar: { ...hand.atWar, it: true } }), 'ap', 'ap-17')).not.toContain('event');
  });

  it('refuses what legalChoices does not list', () => {
    const s = started();
    const listed = legalChoices(s);
    const notInHand: Choice = { kind: 'play', card: 'cp-20', as: 'rp' };
    expect(listed).not.toContainEqual(notInHand);
    expect(() => apply(s, notInHand)).toThrow();
    expect(() => apply(s, { kind: 'play', card: 'ap-1', as: 'rp' })).toThrow();
    expect(() => apply(s, { kind: 'roll-mandated' }, { dice: [1, 1] })).toThrow();
    expect(() => apply(s, { kind: 'answer-peace', accept: true })).toThrow();
    for (const c of listed) expect(() => apply(s, c, { dice: [3] })).not.toThrow();
  });
});

describe('peace terms (16.5)', () => {
  const started = (scenario: PogState['scenario'] = 'campaign') => apply(opening(scenario), { kind: 'roll-mandated' }, { dice: [2, 4] });

  it('may be offered by the Central Powers at 11 VP or more, by the Allies at 9 or less, never in the introductory scenario', () => {
    const s = started();
    expect(mayOfferPeace(s, 'cp')).toBe(false);
    expect(mayOfferPeace(s, 'ap')).toBe(false);
    expect(legalChoices(s)).not.toContainEqual({ kind: 'offer-peace' });
    expect(mayOfferPeace(withState(s, { vp: 11 }), 'cp')).toBe(true);
    expect(legalChoices(withState(s, { vp: 11 }))).toContainEqual({ kind: 'offer-peace' });
    expect(mayOfferPeace(withState(s, { vp: 9 }), 'ap')).toBe(true);
    expect(mayOfferPeace(withState(s, { vp: 9 }), 'cp')).toBe(false);
    expect(mayOfferPeace(withState(started('introductory'), { vp: 15 }), 'cp')).toBe(false);
    // After the 14 Points only the Allies may offer.
    expect(mayOfferPeace(withState(s, { vp: 15, events: ['fourteen_points'] }), 'cp')).toBe(false);
  });

  it("accepted, ends the game in a draw; refused, moves VP by the offering side's roll", () => {
    const s = withState(started(), { vp: 12 });
    const offered = apply(s, { kind: 'offer-peace' });
    expect(toAct(offered)).toBe('ap');
    expect(legalChoices(offered)).toEqual([
      { kind: 'answer-peace', accept: true },
      { kind: 'answer-peace', accept: false },
    ]);
    const drawn = apply(offered, { kind: 'answer-peace', accept: true });
    expect(drawn.result).toEqual({ winner: 'draw', reason: 'peace-terms' });
    expect(drawn.phase).toBe('ended');
    expect(legalChoices(drawn)).toEqual([]);
    const refused = (roll: number, combined = 0) => apply(withState(offered, { combined }), { kind: 'answer-peace', accept: false }, { dice: [roll] });
    expect([1, 2, 3, 4, 5, 6].map((r) => refused(r).vp)).toEqual([13, 13, 13, 12, 12, 11]);
    expect(refused(3, 20).vp).toBe(12);
    const after = refused(4);
    expect([after.peaceOffer, toAct(after), after.actions.cp]).toEqual([null, 'ap', [{ kind: 'peace' }]]);
    // The Allies' offer moves VP down in their favour.
    const low = withState(started(), { vp: 8 });
    const cpPlay = legalChoices(low).find((c) => c.kind === 'play')!;
    const ap = apply(apply(low, cpPlay), { kind: 'offer-peace' });
    expect(toAct(ap)).toBe('cp');
    expect(apply(ap, { kind: 'answer-peace', accept: false }, { dice: [1] }).vp).toBe(7);
    expect(apply(ap, { kind: 'answer-peace', accept: false }, { dice: [6] }).vp).toBe(9);
    expect(() => apply(ap, { kind: 'answer-peace', accept: false }, { dice: [] })).toThrow();
  });
});

describe('determinism', () => {
  it('the same choices, dice and deal give the same state, for random legal plays', () => {
    const run = (seed: number) => {
      const pick = picker(seed);
      const deck = mob('ap');
      const ap: string[] = [];
      while (ap.length < 7) {
        const c = deck.splice(pick(deck.length), 1)[0]!;
        ap.push(c);
      }
      let s = newGame('campaign', { gunsOfAugust: true, deal: { ap, cp: mob('cp').slice(1, 7) } });
      s = apply(s, { kind: 'roll-mandated' }, { dice: [1 + pick(6), 1 + pick(6)] });
      for (let i = 0; i < 12; i++) {
        const options = legalChoices(s);
        if (options.length === 0) break;
        s = apply(s, options[pick(options.length)]!, { dice: [1 + pick(6)] });
      }
      return JSON.stringify(s);
    };
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });
});
