// The app shell: header with navigation and the language switch, and hash routes.
//   #/            home: your games, new game, join; the practice board and About below
//   #/new         new game          #/join   join by link or QR
//   #/table       join at the table (pairing by QR codes, no internet)
//   #/game/<id>   lobby, then the game          #/settings   settings and licences
// An invite link carries its data in the fragment ("#v=1&g=…&k=…"): it is kept on this device
// and replaced by the game's route, so the room password does not stay in the address bar.
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { About } from './About';
import type { Device } from './game/device';
import { pageStore } from './game/page-store';
import { useBackgroundGames } from './home/background';
import { Home } from './home/Home';
import { routeOf, type Route } from './home/route';
import { LANGS, STRINGS, defaultLang, type Lang } from './i18n';
import { APP_STRINGS } from './lobby/strings';
import './styles.css';

// The first chunk holds React, the store's IndexedDB reads and the home screen, nothing more
// (tests/e2e/home-chunk.test.ts holds this): the identity (the protocol's cryptography), the rules
// engine and the practice board, Yjs, the network and QR codes load when first needed, and the
// likely next ones are fetched once the home screen has painted (prefetchAfterPaint below).
const pageDevice = (): Promise<Device> => import('./game/device').then((m) => m.pageDevice());
const PracticeBoard = lazy(() =>
  Promise.all([import('./practice/PracticeBoard'), import('../rules')]).then(([{ PracticeBoard: Board }, { STARTING_POSITION }]) => ({
    default: (props: { lang: Lang }) => <Board start={STARTING_POSITION} lang={props.lang} />,
  })),
);
const GamePage = lazy(() => import('./game/GamePage').then((m) => ({ default: m.GamePage })));
const NewGame = lazy(() => import('./lobby/NewGame').then((m) => ({ default: m.NewGame })));
const JoinByLink = lazy(() => import('./home/JoinByLink').then((m) => ({ default: m.JoinByLink })));
const TableJoin = lazy(() => import('./home/TableJoin').then((m) => ({ default: m.TableJoin })));
const Settings = lazy(() => import('./settings/Settings').then((m) => ({ default: m.Settings })));

/** The home list of a phone that has never stored anything. */
const NO_GAMES: Pick<Device['store'], 'listGames'> = { listGames: () => Promise.resolve([]) };

/** Whether this browser has no Pacto database yet: then it has no games, known without creating the
 *  database and its stores, which is most of a fresh profile's wait for its home list. False when
 *  the browser cannot say (no indexedDB.databases()). */
function noDatabaseYet(): Promise<boolean> {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (factory === undefined || typeof factory.databases !== 'function') return Promise.resolve(false);
  return factory.databases().then(
    (list) => !list.some((d) => d.name === 'pacto'),
    () => false,
  );
}

/** The longest the home screen holds back the rest of the app waiting for its list. */
const REST_AT_LATEST_MS = 3000;

/** Once the device is ready and the page idle: the game screen's code (the network, Yjs), so the
 *  first game opened does not wait for it. The service worker caches every chunk too; this also
 *  has them compiled. */
function prefetchWhenIdle(): void {
  const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 5000 }) : setTimeout(f, 500));
  idle(() => void import('./game/GamePage').catch(() => undefined));
}

function useHashRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return routeOf(hash);
}

export function App() {
  const [lang, setLangState] = useState<Lang>(() => defaultLang(navigator.languages ?? [navigator.language]));
  const [device, setDevice] = useState<Device | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [store, setStore] = useState<Pick<Device['store'], 'listGames'> | null>(null);
  const route = useHashRoute();
  useBackgroundGames(device, route.name === 'game' ? route.gameId : route.name);
  const t = STRINGS[lang];
  const a = APP_STRINGS[lang];
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  // On the home screen the rest of the app waits until the games list has painted (or a moment has
  // passed, should the store never answer); any other route needs the device at once.
  const [homeShown, setHomeShown] = useState(false);
  const onHomeShown = useCallback(() => setHomeShown(true), []);
  const startRest = route.name !== 'home' || homeShown;
  useEffect(() => {
    // Asked before the store is opened (opening creates the database).
    void noDatabaseYet().then((none) => none && setStore((s) => s ?? NO_GAMES));
    pageStore().then(
      (s) => {
        setStore(s);
        // The player's language is a setting: read it from the store, without waiting for the device.
        s.getSettings().then(
          (settings) => settings.language !== undefined && setLangState(settings.language),
          () => undefined,
        );
      },
      () => undefined,
    );
    const timer = setTimeout(() => setHomeShown(true), REST_AT_LATEST_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (!startRest) return;
    let live = true;
    pageDevice().then(
      (d) => {
        if (!live) return;
        // The language came from the store's settings already (above): not set a second time here.
        setDevice(d);
        prefetchWhenIdle();
      },
      (e: unknown) => live && setFailure(String((e as Error).message ?? e)),
    );
    return () => {
      live = false;
    };
  }, [startRest]);
  const setLang = useCallback(
    (l: Lang) => {
      setLangState(l);
      void device?.store.updateSettings({ language: l }).catch(() => undefined);
    },
    [device],
  );
  const openInvite = useCallback(
    (link: string) => {
      if (device === null) return;
      void Promise.all([import('../net/invite'), import('./game/create')]).then(([{ parseInvite }, { acceptInvite }]) => {
        let invite;
        try {
          invite = parseInvite(link);
        } catch {
          location.replace('#/join');
          return;
        }
        void acceptInvite(device, invite, Date.now()).then((id) => location.replace(`#/game/${id}`));
      });
    },
    [device],
  );
  useEffect(() => {
    if (route.name === 'invite') openInvite(route.link);
  }, [route, openInvite]);

  let page;
  if (failure !== null && route.name !== 'home') page = <p role="alert">{failure}</p>;
  else if (route.name === 'home') {
    page = (
      <>
        <p className="tagline">{t.tagline}</p>
        <Home store={store} lang={lang} onShown={onHomeShown} />
        {homeShown ? (
          <Suspense fallback={null}>
            <PracticeBoard lang={lang} />
          </Suspense>
        ) : null}
        <About lang={lang} />
      </>
    );
  } else if (device === null || route.name === 'invite') page = <p role="status">{a.home.loading}</p>;
  else if (route.name === 'new') page = <NewGame device={device} lang={lang} onCreated={(id) => (location.hash = `#/game/${id}`)} />;
  else if (route.name === 'join') page = <JoinByLink lang={lang} onInvite={openInvite} />;
  else if (route.name === 'table') page = <TableJoin device={device} lang={lang} onJoined={(id) => location.replace(`#/game/${id}`)} />;
  else if (route.name === 'settings') page = <Settings device={device} lang={lang} onLang={setLang} onSaved={setDevice} />;
  else
    page = (
      <GamePage
        key={`${route.gameId}/${route.tab ?? ''}`}
        gameId={route.gameId}
        lang={lang}
        device={device}
        {...(route.tab === undefined ? {} : { tab: route.tab })}
      />
    );

  return (
    <div className="app" lang={lang}>
      <header className="app-header">
        <h1>
          <a href="#/" className="home-link">
            {t.title}
          </a>
        </h1>
        <nav aria-label={a.nav.main}>
          <a href="#/">{a.nav.home}</a> <a href="#/settings">{a.nav.settings}</a>
        </nav>
        <label>
          <span className="visually-hidden">{t.language}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} aria-label={t.language}>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {t.languageNames[l]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main>
        <Suspense fallback={<p role="status">{a.home.loading}</p>}>{page}</Suspense>
      </main>
    </div>
  );
}
