// Route #/table: "Join at the table". Step 1 is having the app kept on this phone (with no
// internet there is no other way to run it); then the inviting phone's QR code is scanned (or its
// code typed), this phone shows its answer, and once the inviter has scanned it the link greets
// with the game's invite: the game is kept on this phone like any invite and its lobby opens,
// with the link already carrying the game.
import { useEffect, useRef, useState } from 'react';
import { parseInvite } from '../../net/invite';
import type { Device } from '../game/device';
import { acquireGame } from '../game/live';
import { answerAsNewcomer } from '../game/table';
import { TABLE_STRINGS, tableError } from '../game/table-strings';
import { InstallStep, TableQr, TableScanner } from '../game/TablePairing';
import type { Lang } from '../i18n';
import { acceptInvite } from '../game/create';

export function TableJoin(props: { device: Device; lang: Lang; onJoined: (gameId: string) => void }) {
  const t = TABLE_STRINGS[props.lang];
  const [answer, setAnswer] = useState<Uint8Array | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const cancel = useRef<(() => void) | null>(null);
  useEffect(() => () => cancel.current?.(), []);
  const onOffer = (offer: Uint8Array) => {
    setError(null);
    answerAsNewcomer(offer, props.device.identity.id).then(
      (a) => {
        cancel.current = a.cancel;
        setAnswer(a.ticket);
        a.joined
          .then(async ({ link, hello }) => {
            cancel.current = null;
            setJoining(true);
            const invite = parseInvite(hello.invite!);
            if (invite.gameId !== hello.gameId) throw new Error('the other phone sent a mismatched game');
            const gameId = await acceptInvite(props.device, invite, Date.now());
            // Held while the link lives: the game stays open for it whatever screen shows.
            const handle = acquireGame(props.device, gameId);
            const game = await handle.ready;
            if (game === null) {
              handle.release();
              link.close();
              throw new Error('the game could not be opened');
            }
            game.table.attach(link, hello);
            link.onClose(() => handle.release());
            props.onJoined(gameId);
          })
          .catch((e: unknown) => {
            setAnswer(null);
            setJoining(false);
            setError(tableError(e, props.lang));
          });
      },
      (e: unknown) => setError(tableError(e, props.lang)),
    );
  };
  return (
    <section className="table-join" aria-labelledby="table-join-title">
      <h2 id="table-join-title">{t.joinAtTable}</h2>
      <InstallStep lang={props.lang} />
      <p className="muted">{t.hint}</p>
      {joining ? (
        <p role="status">{t.joining}</p>
      ) : answer === null ? (
        <>
          <p>{t.scanHost}</p>
          <TableScanner lang={props.lang} want="offer" onCode={onOffer} error={error} />
        </>
      ) : (
        <>
          <p>{t.showAnswer}</p>
          <TableQr ticket={answer} lang={props.lang} role="answer" />
          {error !== null ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
