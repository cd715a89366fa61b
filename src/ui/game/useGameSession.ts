// useGameSession: one game on this phone as a GameSession. The game is opened by live.ts (its Y.Doc
// from IndexedDB, connected to the game's room through the invite's signaling servers and to the
// other tabs of this browser over BroadcastChannel); this hook hands the screens what the runner
// derives, with a clock that ticks once a second.
import { useEffect, useMemo, useState } from 'react';
import type { Power } from '../../rules';
import { deviceNames, pageDevice, type Device } from './device';
import { acquireGame } from './live';
import { disableNotifications, enableNotifications, loadNotifySettings, setQuietHours } from './push';
import type { GameRunner, RunnerState } from './runner';
import type { GameInvite, GameNetwork, LobbySession, NetStatus } from './session';

export type SessionLoad =
  | { readonly state: 'loading' }
  | { readonly state: 'missing' }
  | { readonly state: 'error'; readonly error: string }
  /** device: for the plumbing beside the screens (the table panel), never part of the session. */
  | { readonly state: 'ready'; readonly session: LobbySession; readonly device: Device };

const OFFLINE: NetStatus = { peers: 0, synced: false, online: false };

export function useGameSession(gameId: string, deviceOverride?: Device): SessionLoad {
  const [load, setLoad] = useState<{ runner: GameRunner; device: Device; relays: () => readonly string[] } | 'loading' | 'missing' | { error: string }>(
    'loading',
  );
  const [state, setState] = useState<RunnerState | null>(null);
  const [net, setNet] = useState<NetStatus>(OFFLINE);
  const [network, setNetworkState] = useState<{
    value: GameNetwork;
    set: (relays: readonly string[], iceServers: GameNetwork['iceServers']) => Promise<void>;
    invite: GameInvite;
  } | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    let cancelled = false;
    const undo: (() => void)[] = [];
    setLoad('loading');
    setState(null);
    void (async () => {
      const device = deviceOverride ?? (await pageDevice());
      if (cancelled) return;
      const handle = acquireGame(device, gameId);
      undo.push(() => handle.release());
      const game = await handle.ready;
      if (cancelled) return;
      if (game === null) {
        setLoad('missing');
        return;
      }
      const runner = game.runner;
      undo.push(runner.subscribe(() => setState(runner.current)));
      const network = (): void =>
        setNetworkState((prev) =>
          prev?.value === game.network() ? prev : { value: game.network(), set: (r, i) => game.setNetwork(r, i), invite: game.invite() },
        );
      undo.push(
        game.onNet(() => {
          setNet(game.net());
          network();
        }),
      );
      setState(runner.current);
      setNet(game.net());
      network();
      setLoad({ runner, device, relays: () => game.relays() });
    })().catch((e: unknown) => {
      if (!cancelled) setLoad({ error: e instanceof Error ? e.message : String(e) });
    });
    return () => {
      cancelled = true;
      undo.reverse().forEach((f) => f());
      undo.length = 0;
    };
  }, [gameId, deviceOverride]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  const ready = typeof load === 'object' && 'runner' in load ? load : null;
  const session = useMemo<LobbySession | null>(() => {
    if (ready === null || state === null) return null;
    const r = ready.runner;
    return {
      gameId,
      view: state.view,
      me: state.me,
      net,
      ...(network ? { network: network.value, setNetwork: network.set, invite: network.invite } : {}),
      notifications: {
        load: () => loadNotifySettings(ready.device, gameId),
        enable: (quiet) => enableNotifications(ready.device, gameId, ready.relays(), quiet),
        disable: () => disableNotifications(ready.device, gameId, ready.relays()),
        setQuiet: (quiet) => setQuietHours(ready.device, gameId, quiet),
      },
      now,
      drafts: state.drafts,
      sealed: state.sealed,
      drawVotes: state.drawVotes,
      ready: state.ready,
      chats: state.chats,
      unread: state.unread,
      saveDraft: (power: Power, orders) => r.saveDraft(power, orders),
      seal: (power: Power, orders) => r.seal(power, orders),
      voteDraw: (yes) => r.voteDraw(yes),
      markFinal: (yes) => r.markFinal(yes),
      declareAlliance: (power: Power, powers: readonly Power[], yes: boolean) => r.declareAlliance(power, powers, yes),
      concede: (power) => r.concede(power),
      voteTimeout: (against) => r.voteTimeout(against),
      sendChat: (to, text) => r.sendChat(to, text),
      markChatsRead: () => r.markChatsRead(),
      join: (name, power) => r.join(name, power),
      start: (roster) => r.start(roster),
      startLot: (participants) => r.startLot(participants),
      chooseStart: (startId) => r.chooseStart(startId),
      ...(r.gameRecord.seats === undefined ? {} : { seats: r.gameRecord.seats }),
      table: r.gameRecord.table === true,
      names: deviceNames(ready.device),
    };
  }, [ready, state, net, network, now, gameId]);

  if (load === 'loading') return { state: 'loading' };
  if (load === 'missing') return { state: 'missing' };
  if (typeof load === 'object' && 'error' in load) return { state: 'error', error: load.error };
  return session === null || ready === null ? { state: 'loading' } : { state: 'ready', session, device: ready.device };
}
