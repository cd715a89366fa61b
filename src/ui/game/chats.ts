// The press as this phone reads it: each chat of the view opened once with this phone's box key
// (remembered by id). The recipients are inside the sealed part (the view does not carry them), so
// a chat this phone cannot open shows as "not for me" (text null, no recipients).
import { openChat, type ChatContent, type GameView, type Identity } from '../../protocol';
import { POWERS, type Power } from '../../rules';
import type { DecryptedChat } from './session';

export class ChatReader {
  private readonly opened = new Map<string, ChatContent | null>();

  constructor(private readonly me: Identity) {}

  read(view: GameView): DecryptedChat[] {
    const roster = view.holders;
    const neutral = view.neutral;
    const powerOf = (k: string): Power | undefined => (roster === undefined ? undefined : POWERS.find((p) => roster[p] === k && !neutral.includes(p)));
    return view.chats.map((c) => {
      let content = this.opened.get(c.id);
      if (content === undefined) {
        const sender = view.players.find((p) => p.key === c.from);
        content = sender === undefined ? null : openChat(c.box, sender.box, this.me);
        this.opened.set(c.id, content);
      }
      const to =
        content === null
          ? []
          : content.to === 'all'
            ? 'all'
            : POWERS.filter(
                (p) => roster !== undefined && !neutral.includes(p) && content.to !== 'all' && content.to.includes(roster[p]) && roster[p] !== c.from,
              );
      const fromPower = powerOf(c.from);
      return { id: c.id, from: c.from, text: content?.text ?? null, to, time: content?.time ?? 0, ...(fromPower === undefined ? {} : { fromPower }) };
    });
  }
}
