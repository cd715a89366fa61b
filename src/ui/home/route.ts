// Hash routes of the app. An invite link's fragment ("v=1&g=…&k=…") is a route of its own: the
// app keeps the invite and moves on to the game, so the room password leaves the address bar.
export type Route =
  | { readonly name: 'home' }
  | { readonly name: 'new' }
  | { readonly name: 'join' }
  | { readonly name: 'table' }
  | { readonly name: 'settings' }
  /** tab: the screen a notification opens (#/game/<id>/results, /board, /press). */
  | { readonly name: 'game'; readonly gameId: string; readonly tab?: GameTabName }
  | { readonly name: 'invite'; readonly link: string };

export type GameTabName = 'board' | 'results' | 'history' | 'press' | 'game';

export function routeOf(hash: string): Route {
  const h = hash.replace(/^#/, '');
  if (/^v=/.test(h) || /[?&]g=/.test(h)) return { name: 'invite', link: h };
  const game = /^\/game\/([A-Za-z0-9_-]{8,128})(?:\/(board|results|history|press|game))?$/.exec(h);
  if (game !== null) return { name: 'game', gameId: game[1]!, ...(game[2] === undefined ? {} : { tab: game[2] as GameTabName }) };
  if (h === '/new') return { name: 'new' };
  if (h === '/join') return { name: 'join' };
  if (h === '/table') return { name: 'table' };
  if (h === '/settings') return { name: 'settings' };
  return { name: 'home' };
}
