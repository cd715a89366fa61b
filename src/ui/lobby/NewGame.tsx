// The new-game form: players, the rule set and the split of powers into seats (the registry's
// variants for that count), how seats are assigned, rule options, deadlines (none for a table
// game, hours for a weekend game), short-game end year, press on or off, and, folded under
// "Advanced", the network: the signaling address, relays and STUN/TURN servers (the invite carries
// them to every phone). The name is remembered. The form only reads what was typed: the network
// lines are checked by the game plumbing (readNetworkLines), and creating (signing CREATE and the
// creator's JOIN, the room password, storing) is the plumbing's createNewGame; then the lobby opens.
import { useState } from 'react';
import type { Power, Variant } from '../../rules';
import { createNewGame } from '../game/create';
import { deviceNames, type Device } from '../game/device';
import { readNetworkLines, type NetworkField } from '../game/network-form';
import { powerName, type Lang } from '../i18n';
import { AdvancedField, AdvancedSection } from './Advanced';
import { useRememberedName } from './name';
import { APP_STRINGS } from './strings';
import { TABLE_STRINGS } from '../game/table-strings';
import { InstallStep } from '../game/TablePairing';
import { seatLabel } from './seat-label';
import { chosenVariant, defaultEndYear, PLAYER_COUNTS, RULE_SETS, seatClaim, variantFor, variantsFor, type RuleSet } from './variants';

/** What the chosen variant means at the table: its description, its seats, who is neutral. */
function VariantSummary(props: { variant: Variant; lang: Lang }) {
  const { variant, lang } = props;
  const t = APP_STRINGS[lang].newGame;
  const v = variant.victory;
  return (
    <div className="variant-summary" id="variant-summary" data-variant={variant.id} aria-live="polite">
      <p className="variant-description">{variant.description[lang]}</p>
      <p>{t.seatsList}:</p>
      <ul className="variant-seats">
        {variant.seats.map((seat) => (
          <li key={seat.id} data-seat={seat.id}>
            {seatLabel(seat.powers, lang)}
          </li>
        ))}
      </ul>
      {variant.neutral.length > 0 ? (
        <p className="variant-neutral" data-neutral={variant.neutral.join(',')}>
          {t.neutralNote}: {variant.neutral.map((p) => powerName(p, lang)).join(', ')}
        </p>
      ) : null}
      {variant.toss !== undefined ? (
        <p className="variant-impassable">
          {t.impassableNote} {variant.toss.year}.
        </p>
      ) : null}
      {v.by === 'seat' ? (
        <p className="variant-victory">
          {t.seatVictory} {v.needed} {v.count === 'units' ? t.seatVictoryUnits : t.seatVictoryCentres}.
        </p>
      ) : null}
    </div>
  );
}

export function NewGame(props: { device: Device; lang: Lang; onCreated: (gameId: string) => void }) {
  const { device, lang } = props;
  const t = APP_STRINGS[lang].newGame;
  const ts = TABLE_STRINGS[lang];
  const [name, setName] = useRememberedName(deviceNames(device));
  const [seats, setSeats] = useState(7);
  const [ruleSet, setRuleSet] = useState<RuleSet>('classic');
  const [variantId, setVariantId] = useState<string>(variantFor('standard').id);
  const [assignment, setAssignment] = useState<'lot' | 'choice'>('lot');
  const [claim, setClaim] = useState<Power | ''>('');
  const [weekend, setWeekend] = useState(false);
  const [offline, setOffline] = useState(false);
  const [movementHours, setMovementHours] = useState(48);
  const [retreatHours, setRetreatHours] = useState(24);
  const [short, setShort] = useState(false);
  const [endYear, setEndYear] = useState<number | null>(null);
  const [gunboat, setGunboat] = useState(false);
  const [victoryCentres, setVictoryCentres] = useState<number | null>(null);
  const [signaling, setSignaling] = useState((device.settings.signaling ?? [])[0] ?? '');
  const [relays, setRelays] = useState((device.settings.relays ?? []).join('\n'));
  const [ice, setIce] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const variant = chosenVariant(seats, ruleSet, variantId) ?? variantFor('standard');
  const splits = variantsFor(seats, ruleSet);
  const startYear = variant.start.phase.year;
  const year = endYear !== null && endYear >= startYear ? endYear : defaultEndYear(variant);
  const centres = victoryCentres ?? variant.rules.victoryCentres;
  const claimable = variant.seats.some((seat) => claim !== '' && seat.powers.includes(claim)) ? claim : '';
  const badNetwork: Record<NetworkField, string> = { signaling: t.badSignaling, relays: t.badRelays, iceServers: t.badIce };

  const submit = async () => {
    const network = readNetworkLines({ signaling, relays, iceServers: ice });
    if (!network.ok) {
      // The first field with a bad line, and the lines refused there.
      const field = network.problems[0]!.field;
      const refused = network.problems.filter((p) => p.field === field && p.line !== null).map((p) => `«${p.line}»`);
      setError(refused.length > 0 ? `${badNetwork[field]} ${refused.join(', ')}` : badNetwork[field]);
      return;
    }
    setBusy(true);
    try {
      await deviceNames(device).remember(name);
      const rules: Record<string, number | boolean> = {};
      // Only a change from the variant's own number is signed; a side's total is the variant's.
      if (variant.victory.by === 'power' && centres !== variant.rules.victoryCentres) rules.victoryCentres = centres;
      // Not an adjudication rule: the protocol carries it in the signed settings so every phone agrees press is off.
      if (gunboat) rules.gunboat = true;
      const gameId = await createNewGame(device, {
        name: name.trim() || '?',
        seats,
        assignment,
        claim: claimable === '' ? null : claimable,
        variant: variant.id,
        rules,
        movementHours: weekend ? movementHours : 0,
        retreatHours: weekend ? retreatHours : 0,
        endYear: short ? year : null,
        signaling: network.signaling,
        relays: network.relays,
        iceServers: network.iceServers,
        table: offline,
      });
      props.onCreated(gameId);
    } catch (e) {
      setError(String((e as Error).message ?? e));
      setBusy(false);
    }
  };

  return (
    <section className="new-game" aria-labelledby="new-game-title">
      <h2 id="new-game-title">{t.title}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          {t.yourName}
          <input name="name" value={name} maxLength={40} required onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
        </label>
        <label>
          {t.seats}
          <select name="seats" value={seats} onChange={(e) => setSeats(Number(e.target.value))}>
            {PLAYER_COUNTS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>{t.ruleSet}</legend>
          {RULE_SETS.map((r) => (
            <label key={r}>
              <input type="radio" name="ruleSet" value={r} checked={ruleSet === r} onChange={() => setRuleSet(r)} />
              {r === 'classic' ? t.classic : t.rules1914}
            </label>
          ))}
        </fieldset>
        <label>
          {t.split}
          <select name="variant" value={variant.id} onChange={(e) => setVariantId(e.target.value)} aria-describedby="variant-summary">
            {splits.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name[lang]}
              </option>
            ))}
          </select>
        </label>
        <VariantSummary variant={variant} lang={lang} />
        <fieldset>
          <legend>{t.assignment}</legend>
          <label>
            <input type="radio" name="assignment" value="lot" checked={assignment === 'lot'} onChange={() => setAssignment('lot')} />
            {t.byLot}
          </label>
          <label>
            <input type="radio" name="assignment" value="choice" checked={assignment === 'choice'} onChange={() => setAssignment('choice')} />
            {t.byChoice}
          </label>
        </fieldset>
        {assignment === 'choice' ? (
          <label>
            {t.yourPower}
            <select name="claim" value={claimable} onChange={(e) => setClaim(e.target.value as Power | '')}>
              <option value="">{t.later}</option>
              {variant.seats.map((seat) => (
                <option key={seat.id} value={seatClaim(seat)}>
                  {seatLabel(seat.powers, lang)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {variant.victory.by === 'power' ? (
          <label>
            {t.victoryCentres}
            <input type="number" name="victoryCentres" min={10} max={34} value={centres} onChange={(e) => setVictoryCentres(Number(e.target.value) || null)} />
          </label>
        ) : null}
        <fieldset>
          <legend>{t.kind}</legend>
          <label>
            <input type="radio" name="kind" value="table" checked={!weekend && !offline} onChange={() => (setWeekend(false), setOffline(false))} />
            {t.table}
          </label>
          <label>
            <input type="radio" name="kind" value="offline-table" checked={offline} onChange={() => (setWeekend(false), setOffline(true))} />
            {ts.kind}
          </label>
          <label>
            <input type="radio" name="kind" value="weekend" checked={weekend} onChange={() => (setWeekend(true), setOffline(false))} />
            {t.weekend}
          </label>
        </fieldset>
        {offline ? (
          <>
            <p className="muted">{ts.kindHint}</p>
            <InstallStep lang={lang} />
          </>
        ) : null}
        {weekend ? (
          <>
            <label>
              {t.movementHours}
              <input
                type="number"
                name="movementHours"
                min={1}
                max={720}
                value={movementHours}
                onChange={(e) => setMovementHours(Number(e.target.value) || 1)}
              />
            </label>
            <label>
              {t.retreatHours}
              <input type="number" name="retreatHours" min={1} max={720} value={retreatHours} onChange={(e) => setRetreatHours(Number(e.target.value) || 1)} />
            </label>
          </>
        ) : null}
        <label className="check">
          <input type="checkbox" name="short" checked={short} onChange={(e) => setShort(e.target.checked)} />
          {t.shortGame}
        </label>
        {short ? (
          <label>
            {t.endYear}
            <input type="number" name="endYear" min={startYear} max={2100} value={year} onChange={(e) => setEndYear(Number(e.target.value) || null)} />
          </label>
        ) : null}
        <label className="check">
          <input type="checkbox" name="gunboat" checked={gunboat} onChange={(e) => setGunboat(e.target.checked)} />
          {t.gunboat}
        </label>
        <AdvancedSection lang={lang} open={error !== null && Object.values(badNetwork).some((b) => error.startsWith(b))}>
          <AdvancedField label={t.signaling} help={t.signalingHelp}>
            <input name="signaling" value={signaling} placeholder="wss://…" onChange={(e) => setSignaling(e.target.value)} inputMode="url" />
          </AdvancedField>
          <AdvancedField label={t.relays} help={t.relaysHelp}>
            <textarea
              name="relays"
              aria-label={t.relays}
              rows={2}
              value={relays}
              placeholder="wss://…/relay"
              onChange={(e) => setRelays(e.target.value)}
              inputMode="url"
              spellCheck={false}
            />
          </AdvancedField>
          <AdvancedField label={t.iceServers} help={t.iceServersHelp}>
            <textarea
              name="iceServers"
              aria-label={t.iceServers}
              rows={2}
              value={ice}
              placeholder="turn:turn.example:3478 user secret"
              onChange={(e) => setIce(e.target.value)}
              spellCheck={false}
            />
          </AdvancedField>
        </AdvancedSection>
        {error !== null ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy} data-action="create-game">
          {busy ? t.creating : t.create}
        </button>
      </form>
    </section>
  );
}
