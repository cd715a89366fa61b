import { describe, expect, it } from 'vitest';
import { CARDS } from '../../../src/games/pog/data';
import { newGame, type PogState } from '../../../src/games/pog/state';
import { scenarioEnd, victoryLevels, warStatusEnd, winnerByVp } from '../../../src/games/pog/victory';

const mob = (side: 'ap' | 'cp') => CARDS.filter((c) => c.side === side && c.commitment === 'mobilization').map((c) => c.id);
const game = (scenario: PogState['scenario'], change: Partial<PogState> = {}): PogState => ({
  ...newGame(scenario, { gunsOfAugust: true, deal: { ap: mob('ap').slice(0, 7), cp: mob('cp').slice(1, 7) } }),
  ...change,
});

describe('victory (5.0)', () => {
  it("reads each scenario's levels from the VP marker", () => {
    const at = (scenario: PogState['scenario'], vps: number[], events: string[] = []) => vps.map((vp) => winnerByVp(game(scenario, { vp, events })));
    // Introductory: CP 14+, draw 11-13, Allies 10 or less (5.3.4).
    expect(at('introductory', [14, 13, 11, 10])).toEqual(['cp', 'draw', 'draw', 'ap']);
    // Limited War: CP 17+, draw 13-16, Allies 12 or less (5.4.2).
    expect(at('limited', [17, 16, 13, 12])).toEqual(['cp', 'draw', 'draw', 'ap']);
    // Campaign without Brest-Litovsk: CP 13+, draw 10-12, Allies 9 or less; with it: CP 11+, draw 10 (5.5.2).
    expect(at('campaign', [13, 12, 10, 9])).toEqual(['cp', 'draw', 'draw', 'ap']);
    expect(at('campaign', [11, 10, 9], ['treaty_of_brest_litovsk'])).toEqual(['cp', 'draw', 'ap']);
    expect(victoryLevels(game('limited', { events: ['treaty_of_brest_litovsk'] }))).toEqual({ centralFrom: 17, alliedUpTo: 12 });
  });

  it('ends in the war status phase at 20 VP or 0 VP, or by armistice at combined war status 40', () => {
    expect(warStatusEnd(game('campaign', { vp: 20 }))).toEqual({ winner: 'cp', reason: 'automatic' });
    expect(warStatusEnd(game('introductory', { vp: 0 }))).toEqual({ winner: 'ap', reason: 'automatic' });
    expect(warStatusEnd(game('campaign', { vp: 19, combined: 39 }))).toBeNull();
    expect(warStatusEnd(game('campaign', { vp: 12, combined: 40 }))).toEqual({ winner: 'draw', reason: 'armistice' });
    expect(warStatusEnd(game('campaign', { vp: 13, combined: 41 }))).toEqual({ winner: 'cp', reason: 'armistice' });
  });

  it('ends a scenario after its last turn, and the Limited War scenario at Total War', () => {
    expect(scenarioEnd(game('introductory', { turn: 2 }))).toBeNull();
    expect(scenarioEnd(game('introductory', { turn: 3, vp: 12 }))).toEqual({ winner: 'draw', reason: 'scenario-end' });
    expect(scenarioEnd(game('limited', { turn: 9 }))).toBeNull();
    expect(scenarioEnd(game('limited', { turn: 10, vp: 12 }))).toEqual({ winner: 'ap', reason: 'scenario-end' });
    expect(scenarioEnd(game('limited', { turn: 6, vp: 17, commitment: { ap: 'limited', cp: 'total' } }))).toEqual({ winner: 'cp', reason: 'total-war' });
    expect(scenarioEnd(game('campaign', { turn: 6, commitment: { ap: 'total', cp: 'total' } }))).toBeNull();
    expect(scenarioEnd(game('campaign', { turn: 19 }))).toBeNull();
    expect(scenarioEnd(game('campaign', { turn: 20, vp: 9 }))).toEqual({ winner: 'ap', reason: 'scenario-end' });
  });
});
