// Before the first move: where the game stands and who can start it, at the top on every phone
// (for a lot game, the lot's progress until the game starts by itself); the players with this
// phone's marked "you"; the variant and its seats filling up live (a seat may hold several powers;
// neutral powers are nobody's); joining with a name and a claimed seat; for the creator the deal
// of whole seats (by lot or by hand) and START; the invite, shared through the phone's share sheet
// where it has one (the link and its QR code come from the session); and, when a creator signed two
// STARTs, the forked card.
import { useEffect, useState } from 'react';
import { fingerprint, type GameView } from '../../protocol';
import type { Power, Variant } from '../../rules';
import { RelayStatus } from '../game/RelayStatus';
import type { LobbySession } from '../game/session';
import { powerName, type Lang } from '../i18n';
import { dealProblem, defaultSeats, lotProblem, rosterOf, type SeatDeal } from './roster';
import { useRememberedName } from './name';
import { APP_STRINGS } from './strings';
import { seatLabel } from './seat-label';
import { seatClaim, variantFor } from './variants';
import './lobby.css';

function viewVariant(view: GameView): Variant {
  return variantFor(view.settings?.variant);
}

export function InviteCard(props: { session: LobbySession; lang: Lang }) {
  const t = APP_STRINGS[props.lang].lobby;
  // The game's invite (with its relays and ICE servers, so every phone uses the same ones).
  const invite = props.session.invite;
  const link = invite?.link ?? '';
  const [svg, setSvg] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [shareFailed, setShareFailed] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const copy = () =>
    void navigator.clipboard?.writeText(link).then(
      () => setCopied(true),
      () => setShareFailed(true),
    );
  const share = () => {
    // The share sheet (messaging apps, mail...) where the browser has one; a cancelled sheet is no error.
    navigator.share({ title: t.shareTitle, text: t.shareText, url: link }).catch((e: unknown) => {
      if ((e as { name?: string }).name !== 'AbortError') copy();
    });
  };
  useEffect(() => {
    let live = true;
    void invite?.qrSvg().then((s) => live && setSvg(s));
    return () => {
      live = false;
    };
  }, [invite]);
  if (invite === undefined) return null;
  return (
    <section className="invite" aria-labelledby="invite-title">
      <h3 id="invite-title">{t.invite}</h3>
      <p className="muted">{t.inviteHint}</p>
      <label>
        {t.inviteLink}
        <input className="invite-link" readOnly value={link} onFocus={(e) => e.target.select()} />
      </label>
      <div className="toolbar">
        {canShare ? (
          <button type="button" data-action="share-invite" onClick={share}>
            {t.share}
          </button>
        ) : null}
        <button type="button" className="secondary" data-action="copy-invite" onClick={copy}>
          {copied ? t.copied : t.copy}
        </button>
      </div>
      {shareFailed ? <p className="muted">{t.copyFailed}</p> : null}
      {svg !== null ? <div className="qr" role="img" aria-label={t.qr} dangerouslySetInnerHTML={{ __html: svg }} /> : null}
    </section>
  );
}

function JoinForm(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const me = session.view.players.find((p) => p.key === session.me.key);
  const lot = session.view.settings?.assignment === 'lot';
  const variant = viewVariant(session.view);
  const [name, setName] = useRememberedName(session.names, me?.name);
  // A claim names a power; the form shows the seat holding it.
  const claimedSeat = me?.claim == null ? undefined : variant.seats.find((s) => s.powers.includes(me.claim!));
  const [claim, setClaim] = useState<Power | ''>(claimedSeat === undefined ? '' : seatClaim(claimedSeat));
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const n = name.trim();
    if (n === '') return;
    setError(null);
    void session.names.remember(n);
    session.join(n, lot || claim === '' ? null : claim).catch((e: Error) => setError(e.message));
  };
  return (
    <form
      className="form join-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3>{t.joinTitle}</h3>
      <label>
        {t.yourName}
        <input name="player-name" value={name} maxLength={40} required onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
      </label>
      {lot ? null : (
        <label>
          {t.claimSeat}
          <select name="claim" value={claim} onChange={(e) => setClaim(e.target.value as Power | '')}>
            <option value="">{t.anyPower}</option>
            {variant.seats.map((seat) => (
              <option key={seat.id} value={seatClaim(seat)}>
                {seatLabel(seat.powers, lang)}
              </option>
            ))}
          </select>
        </label>
      )}
      {error !== null ? <p role="alert">{error}</p> : null}
      <button type="submit" data-action="join-game">
        {me === undefined ? t.join : t.update}
      </button>
      {me !== undefined && session.view.creator !== session.me.key ? <p className="muted">{t.joined}</p> : null}
    </form>
  );
}

function CreatorDeal(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const view = session.view;
  const players = view.players;
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const start = (roster: Readonly<Record<Power, string>>) => session.start(roster).catch((e: Error) => setError(e.message));

  // Only a game in the lobby is dealt (Lobby shows this card to its creator then).
  if (view.status !== 'lobby') return null;
  const variant = viewVariant(view);
  const creator = view.creator;
  const suggested = defaultSeats(players, variant);
  const seats: SeatDeal = { ...suggested, ...Object.fromEntries(Object.entries(chosen).filter(([, k]) => players.some((p) => p.key === k))) };
  const problem = dealProblem(seats, variant, players, creator);
  const roster = problem === null ? rosterOf(seats, variant, creator) : null;
  return (
    <div className="deal">
      <h3>{t.assign}</h3>
      {variant.seats.map((seat) => (
        <label key={seat.id} className="seat">
          {t.holder} {seatLabel(seat.powers, lang)}
          <select name={`holder-${seat.id}`} value={seats[seat.id] ?? ''} onChange={(e) => setChosen({ ...chosen, [seat.id]: e.target.value })}>
            {players.map((p) => (
              <option key={p.key} value={p.key}>
                {p.name} ({p.fingerprint.slice(0, 4)})
              </option>
            ))}
          </select>
        </label>
      ))}
      {problem === 'two-seats' || problem === 'free-seat' ? (
        <p className="deal-problem" role="status" data-problem={problem}>
          {t.needPlayers} {variant.seats.length}.
        </p>
      ) : problem === 'not-joined' ? (
        <p className="deal-problem" role="status" data-problem={problem}>
          {t.notJoined}
        </p>
      ) : null}
      <button type="button" data-action="start-game" disabled={roster === null} onClick={() => roster !== null && void start(roster)}>
        {t.start}
      </button>
      {error !== null ? <p role="alert">{error}</p> : null}
    </div>
  );
}

/**
 * Two STARTs and no anchor on this phone (a spectator, a new device, or a creator who split the
 * lobby): nothing is accepted on its own. The person compares fingerprints with the table and
 * follows one; a member of it who had accepted none accepts it.
 */
function ForkedCard(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const [error, setError] = useState<string | null>(null);
  const variant = viewVariant(session.view);
  return (
    <section className="lobby" aria-labelledby="lobby-title" data-status="forked">
      <h2 id="lobby-title">{t.title}</h2>
      <p role="alert">{t.forked}</p>
      <p className="muted">{t.forkedHint}</p>
      <ol className="forks">
        {session.view.forks.map((f) => (
          <li key={f.start} data-fork={f.start}>
            <ul className="roster">
              {f.roster === null
                ? f.members.map((m) => (
                    <li key={m.key}>
                      {m.name} <span className="muted">{m.fingerprint}</span>
                    </li>
                  ))
                : variant.seats.map((seat) => {
                    const m = f.members.find((x) => x.key === f.roster![seat.powers[0]!]);
                    return (
                      <li key={seat.id}>
                        {seatLabel(seat.powers, lang)}: {m?.name ?? '?'} <span className="muted">{m?.fingerprint ?? ''}</span>
                      </li>
                    );
                  })}
            </ul>
            <p className="muted">
              {t.forkAccepted} {f.accepted.length} / {f.members.length}
            </p>
            <button type="button" data-action="choose-start" onClick={() => void session.chooseStart(f.start).catch((e: Error) => setError(e.message))}>
              {t.chooseStart}
            </button>
          </li>
        ))}
      </ol>
      {error !== null ? <p role="alert">{error}</p> : null}
    </section>
  );
}

/**
 * The lot as every phone sees it, at the top: not drawn yet (the creator's phone has the button,
 * the others are told who draws), the phones accepting who takes part, then the sealed ballot
 * running by itself with whom it waits for. Nothing of anyone's number shows: the deal is known
 * when the lot closes, and then the game has started.
 */
function LotCard(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const view = session.view;
  const [error, setError] = useState<string | null>(null);
  const isCreator = view.creator === session.me.key;
  const creatorName = view.players.find((p) => p.key === view.creator)?.name ?? '?';
  const variant = viewVariant(view);
  const state = view.status === 'lot' ? 'drawing' : view.status === 'starting' ? 'accepting' : 'open';
  const problem = lotProblem(view.players, variant);
  // Before the lot opens (accepting), its participants are the START's members.
  const participants = view.status === 'lot' ? view.lot.participants : view.members;
  const waiting = view.status === 'lot' ? view.lot.ballot.waiting : [];
  return (
    <section className="lot-card" aria-labelledby="lot-title" data-lot={state} role="status">
      <h3 id="lot-title">{t.lotTitle}</h3>
      {state === 'open' ? (
        isCreator ? (
          <>
            <p>{t.lotCreatorHint}</p>
            {problem !== null ? (
              <p className="deal-problem" data-problem={problem}>
                {t.needPlayers} {variant.seats.length}.
              </p>
            ) : null}
            <button
              type="button"
              data-action="draw-lots"
              disabled={problem !== null}
              onClick={() => void session.startLot(view.players.map((p) => p.key)).catch((e: Error) => setError(e.message))}
            >
              {t.drawLots}
            </button>
          </>
        ) : (
          <p data-who-starts="">{t.lotBy(creatorName)}</p>
        )
      ) : (
        <>
          <p>{state === 'accepting' ? t.lotStarting : t.lotWaiting}</p>
          <PeopleList keys={participants} session={session} lang={lang} />
          {state === 'drawing' && waiting.length > 0 ? (
            <p className="muted" data-lot-waiting={waiting.length}>
              {t.lotWaitingFor(waiting.map((k) => (k === session.me.key ? t.you : nameOf(view, k))).join(', '))}
            </p>
          ) : null}
        </>
      )}
      {error !== null ? <p role="alert">{error}</p> : null}
    </section>
  );
}

function nameOf(view: GameView, key: string): string {
  return view.players.find((p) => p.key === key)?.name ?? fingerprint(key);
}

/** Players by key, this phone's marked "you". */
function PeopleList(props: { keys: readonly string[]; session: LobbySession; lang: Lang }) {
  const t = APP_STRINGS[props.lang].lobby;
  return (
    <ul className="roster">
      {props.keys.map((key) => {
        const mine = key === props.session.me.key;
        return (
          <li key={key} data-participant={key} className={mine ? 'you' : undefined}>
            <strong>{nameOf(props.session.view, key)}</strong>
            {mine ? <span className="you-mark"> ({t.you})</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function RosterList(props: { roster: Readonly<Record<Power, string>>; session: LobbySession; lang: Lang }) {
  const t = APP_STRINGS[props.lang].lobby;
  const name = (k: string) => props.session.view.players.find((p) => p.key === k)?.name ?? fingerprint(k);
  const variant = viewVariant(props.session.view);
  return (
    <ul className="roster">
      {variant.seats.map((seat) => {
        const key = props.roster[seat.powers[0]!];
        const mine = key === props.session.me.key;
        return (
          <li key={seat.id} data-seat={seat.id} data-holder={key} className={mine ? 'you' : undefined}>
            {seatLabel(seat.powers, props.lang)}: <strong>{name(key)}</strong>
            {mine ? <span className="you-mark"> ({t.you})</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The variant, its seats and who holds or claims each, neutral powers and the closed Italy. */
function SeatsCard(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const view = session.view;
  const variant = viewVariant(view);
  const players = view.players;
  const nameOf = (k: string | undefined) => (k === undefined ? undefined : players.find((p) => p.key === k)?.name);
  const claimants = (powers: readonly Power[]) => players.filter((p) => p.claim !== null && powers.includes(p.claim)).map((p) => p.name);
  return (
    <section className="lobby-variant" aria-labelledby="lobby-variant-title" data-variant={variant.id}>
      <h3 id="lobby-variant-title">
        {t.variant}: {variant.name[lang]}
      </h3>
      <p className="muted variant-description">{variant.description[lang]}</p>
      <h4>{t.seats}</h4>
      <ul className="lobby-seats">
        {variant.seats.map((seat) => {
          const holder = view.roster === undefined ? undefined : nameOf(view.roster[seat.powers[0]!]);
          const claims = claimants(seat.powers);
          return (
            <li key={seat.id} data-seat={seat.id} data-powers={seat.powers.join(',')}>
              <strong>{seatLabel(seat.powers, lang)}</strong> — {holder ?? (claims.length > 0 ? `${t.claims}: ${claims.join(', ')}` : t.freeSeat)}
            </li>
          );
        })}
        {view.neutral.map((p) => (
          <li key={p} data-neutral={p} className="neutral">
            <strong>{powerName(p, lang)}</strong> — {t.neutral}
          </li>
        ))}
      </ul>
      {variant.toss !== undefined ? (
        <p className="impassable" data-impassable={variant.toss.impassable.join(',')}>
          {t.impassable} {variant.toss.year}.
        </p>
      ) : null}
    </section>
  );
}

export function Lobby(props: { session: LobbySession; lang: Lang }) {
  const { session, lang } = props;
  const t = APP_STRINGS[lang].lobby;
  const view = session.view;
  // Every phone knows how many seats the variant has; only the creator's record knows what it asked for.
  const seats = view.settings === undefined ? session.seats : variantFor(view.settings.variant).seats.length;
  const isCreator = view.creator === session.me.key;
  const variant = viewVariant(view);
  const claimLabel = (power: Power) => seatLabel(variant.seats.find((s) => s.powers.includes(power))?.powers ?? [power], lang);
  if (view.status === 'no-game') {
    return (
      <section className="lobby" aria-labelledby="lobby-title">
        <h2 id="lobby-title">{t.title}</h2>
        <p className="muted" role="status">
          {t.connecting}
        </p>
      </section>
    );
  }
  if (view.status === 'incompatible') {
    // A game made with another Pacto (protocol, engine or variant): shown, never changed; its entries stay on this phone.
    return (
      <section className="lobby" aria-labelledby="lobby-title" data-status="incompatible">
        <h2 id="lobby-title">{t.title}</h2>
        <p role="alert">
          {view.incompatible.reason === 'protocol-version' ? t.olderPacto : t.incompatible}: {view.incompatible.game} / {view.incompatible.ours}
        </p>
        <p className="muted">{t.dataKept}</p>
      </section>
    );
  }
  if (view.status === 'forked') return <ForkedCard session={session} lang={lang} />;
  const lot = view.settings?.assignment === 'lot';
  const creatorName = view.players.find((p) => p.key === view.creator)?.name ?? '?';
  // After START (a roster, or the lot's participants) the table is set: nobody joins or deals any more.
  const started = view.status === 'starting' || view.status === 'lot';
  // Where the game stands and who can start it comes first, on every phone.
  const status = lot ? (
    <LotCard session={session} lang={lang} />
  ) : view.status === 'starting' ? (
    <section className="lobby-status" role="status">
      <p>{t.starting}</p>
      {view.roster !== undefined ? <RosterList roster={view.roster} session={session} lang={lang} /> : null}
    </section>
  ) : (
    <p className="lobby-status" role="status" data-who-starts="">
      {isCreator ? t.startHint : t.creatorStarts(creatorName)}
    </p>
  );
  const invite = <InviteCard session={session} lang={lang} />;
  return (
    <section className="lobby" aria-labelledby="lobby-title" data-status={view.status}>
      <h2 id="lobby-title">{t.title}</h2>
      {status}
      {session.net.relays !== undefined ? (
        <p className="muted relay-line">
          <RelayStatus net={session.net} lang={lang} />
        </p>
      ) : null}
      {isCreator && view.status === 'lobby' ? invite : null}
      <h3>
        {t.players}{' '}
        <span className="seats" data-players={view.players.length}>
          ({view.players.length}
          {seats !== undefined ? ` / ${seats}` : ''} {t.seatsFilled})
        </span>
      </h3>
      <ul className="players" aria-live="polite">
        {view.players.map((p) => (
          <li key={p.key} data-player={p.name} className={p.key === session.me.key ? 'you' : undefined}>
            <strong>{p.name}</strong>
            {p.key === session.me.key ? <span className="you-mark"> ({t.you})</span> : null} <span className="muted">{p.fingerprint}</span> —{' '}
            {p.claim === null ? t.noClaim : `${t.claims} ${claimLabel(p.claim)}`}
          </li>
        ))}
      </ul>
      {started ? null : (
        <>
          <JoinForm session={session} lang={lang} />
          {isCreator && !lot ? <CreatorDeal session={session} lang={lang} /> : null}
        </>
      )}
      <SeatsCard session={session} lang={lang} />
      {isCreator && view.status === 'lobby' ? null : invite}
    </section>
  );
}
