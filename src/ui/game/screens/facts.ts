// Facts about people that the screens need and the reducer's view does not carry yet: who holds
// which powers (by player, not by power), whom the phase waits for, how the last draw vote went,
// and the press as conversations between players (centres that changed hands:
// ../../orders/CentreChanges). Pure functions of the
// view (tests/ui/screens-facts.test.ts); each is a candidate for the closed view of issue 14.
import { POWERS } from '../../../rules';
import type { Power } from '../../../rules';
import type { GameView } from '../../../protocol';
import type { DecryptedChat } from '../session';
import { drawState, holdersOf } from './logic';

export interface Person {
  readonly key: string;
  readonly name: string;
  /** The powers this player holds now, neutral placeholders left out. */
  readonly powers: readonly Power[];
  readonly me: boolean;
}

function neutralOf(view: GameView): readonly Power[] {
  return view.neutral;
}

/** The players holding powers now, each once, in the order of their first power. */
export function people(view: GameView, myKey: string): Person[] {
  const holders = holdersOf(view);
  const neutral = neutralOf(view);
  const out = new Map<string, Power[]>();
  for (const p of POWERS) {
    const key = holders[p];
    if (key === undefined || neutral.includes(p)) continue;
    out.set(key, [...(out.get(key) ?? []), p]);
  }
  return [...out.entries()].map(([key, powers]) => ({
    key,
    name: view.players.find((x) => x.key === key)?.name ?? key.slice(0, 8),
    powers,
    me: key === myKey,
  }));
}

/** The player's name for each power held (for result lists and the like). */
export function playerNames(view: GameView): Partial<Record<Power, string>> {
  const out: Partial<Record<Power, string>> = {};
  for (const person of people(view, '')) for (const p of person.powers) out[p] = person.name;
  return out;
}

export interface Waiting {
  /** Other players with powers still to seal, and those powers. */
  readonly others: readonly { readonly key: string; readonly name: string; readonly powers: readonly Power[] }[];
  /** This player's powers still to seal. */
  readonly mine: readonly Power[];
  /** This player is the only one the phase still waits for. */
  readonly lastIsMe: boolean;
}

/** Whom the open phase waits for, by player: every awaited power not sealed and not timed out. */
export function waiting(view: GameView, myKey: string): Waiting {
  const c = view.current;
  if (!c) return { others: [], mine: [], lastIsMe: false };
  const open = c.required.filter((p) => !c.committed.includes(p) && !c.timedOut.includes(p));
  const byPerson = people(view, myKey)
    .map((person) => ({ ...person, powers: person.powers.filter((p) => open.includes(p)) }))
    .filter((person) => person.powers.length > 0);
  const mine = byPerson.find((p) => p.me)?.powers ?? [];
  const others = byPerson.filter((p) => !p.me).map(({ key, name, powers }) => ({ key, name, powers }));
  return { others, mine, lastIsMe: mine.length > 0 && others.length === 0 };
}

export interface DrawPeople {
  /** Players holding a power whose draw vote is needed now (the survivors who vote). */
  readonly voters: readonly Person[];
  /**
   * The last resolved movement phase's opened votes, by people (votes are sealed with the orders,
   * so nothing of the open phase's votes shows): who voted yes for every power they held that
   * voted, of how many such people.
   */
  readonly last?: { readonly phase: string; readonly yes: readonly Person[]; readonly of: number };
}

/** The draw ballot counted by people: a player with three surviving powers is one voter. */
export function drawPeople(view: GameView, myKey: string): DrawPeople {
  const c = view.current;
  const everyone = people(view, myKey);
  const holding = (powers: readonly Power[]): Person[] =>
    everyone.map((person) => ({ ...person, powers: person.powers.filter((p) => powers.includes(p)) })).filter((person) => person.powers.length > 0);
  const voters = c ? holding(c.drawVoters) : [];
  const opened = drawState(view, []).last;
  if (opened === undefined) return { voters };
  const lastVoters = holding(opened.voters);
  return {
    voters,
    last: { phase: opened.phase, yes: lastVoters.filter((person) => person.powers.every((p) => opened.yes.includes(p))), of: lastVoters.length },
  };
}

export interface Thread {
  /** The other players' keys, sorted and joined; 'all' for messages to everyone. */
  readonly id: string;
  /** The other players in the conversation ('all': every other player). */
  readonly with: readonly Person[] | 'all';
  /** Oldest first. */
  readonly chats: readonly DecryptedChat[];
  readonly last: number;
}

/**
 * The press as conversations: a message belongs to the set of players it went between, whatever
 * powers they hold; a message to every other player is the table's conversation. Latest first.
 * A message this phone cannot open is not for this player, and its recipients are sealed inside it
 * (protocol v2: every chat is boxed to every player), so it belongs to no conversation here.
 */
export function threads(view: GameView, chats: readonly DecryptedChat[], myKey: string): Thread[] {
  const everyone = people(view, myKey);
  const others = everyone.filter((p) => !p.me);
  const holders = holdersOf(view);
  const byId = new Map<string, { with: readonly Person[] | 'all'; chats: DecryptedChat[] }>();
  for (const chat of [...chats].filter((c) => c.text !== null).sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1))) {
    const recipients = chat.to === 'all' ? [] : chat.to.flatMap((p) => (holders[p] === undefined ? [] : [holders[p]!]));
    const keys = [...new Set([chat.from, ...recipients])].filter((k) => k !== myKey).sort();
    const all = chat.to === 'all' || (others.length > 0 && others.every((p) => keys.includes(p.key)));
    const id = all ? 'all' : keys.join(',');
    const members: readonly Person[] | 'all' = all
      ? 'all'
      : keys.map(
          (k) => everyone.find((p) => p.key === k) ?? { key: k, name: view.players.find((x) => x.key === k)?.name ?? k.slice(0, 8), powers: [], me: false },
        );
    const entry = byId.get(id) ?? { with: members, chats: [] };
    entry.chats.push(chat);
    byId.set(id, entry);
  }
  return [...byId.entries()]
    .map(([id, t]) => ({ id, with: t.with, chats: t.chats, last: t.chats[t.chats.length - 1]!.time }))
    .sort((a, b) => b.last - a.last || (a.id < b.id ? -1 : 1));
}

/** The powers to address a message to so it reaches exactly these players (one power each). */
export function powersToReach(members: readonly Person[]): Power[] {
  return members.flatMap((p) => (p.powers[0] === undefined ? [] : [p.powers[0]]));
}
