// Phones as GameReplicas in one process, linked like y-webrtc links them: every doc update goes
// to every linked phone through that phone's gate, links run the sync handshake and anti-entropy,
// and settle() runs rounds until linked phones hold the same entries. An attacker is anyone who
// calls deliver() with bytes of their choosing.
import * as Y from 'yjs';
import { AntiEntropyLink, GameReplica, type PeerRef } from '../../../src/net';
import { reduceLog, stateHash, type GameView, type Verifier } from '../../../src/protocol';
import { nodeVerifier } from '../../native-ed25519';

export interface MeshPhone {
  readonly name: string;
  readonly replica: GameReplica;
  readonly doc: Y.Doc;
  /** Doc updates this phone has sent to its links (what it forwards). */
  readonly forwarded: Uint8Array[];
}

interface Link {
  readonly a: MeshPhone;
  readonly b: MeshPhone;
  readonly ab: AntiEntropyLink;
  readonly ba: AntiEntropyLink;
  up: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const fastVerifier: Verifier = nodeVerifier();

export async function meshPhone(
  name: string,
  gameId: string,
  options: { self?: string; verifier?: Verifier; carryDelayMs?: number; clientID?: number } = {},
): Promise<MeshPhone> {
  const doc = new Y.Doc();
  if (options.clientID !== undefined) doc.clientID = options.clientID;
  const replica = await GameReplica.open({
    gameId,
    doc,
    verifier: options.verifier ?? fastVerifier,
    carryDelayMs: options.carryDelayMs ?? 5,
    ...(options.self === undefined ? {} : { self: options.self }),
  });
  const forwarded: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => forwarded.push(u));
  return { name, replica, doc, forwarded };
}

export class Mesh {
  private readonly links: Link[] = [];

  /** Links two phones: their doc updates flow both ways through the receiver's gate. */
  link(a: MeshPhone, b: MeshPhone): Link {
    const refA: PeerRef = { name: a.name, origin: a };
    const refB: PeerRef = { name: b.name, origin: b };
    const link: Link = {
      a,
      b,
      up: true,
      ab: new AntiEntropyLink(a.replica, refB, (m) => setTimeout(() => link.up && link.ba.receive(m), 0)),
      ba: new AntiEntropyLink(b.replica, refA, (m) => setTimeout(() => link.up && link.ab.receive(m), 0)),
    };
    a.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (link.up && origin !== b) setTimeout(() => link.up && b.replica.receive(u, refA), 0);
    });
    b.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (link.up && origin !== a) setTimeout(() => link.up && a.replica.receive(u, refB), 0);
    });
    this.links.push(link);
    return link;
  }

  /** Links every pair. */
  full(phones: readonly MeshPhone[]): void {
    for (let i = 0; i < phones.length; i++) for (let j = i + 1; j < phones.length; j++) this.link(phones[i]!, phones[j]!);
  }

  /** Sync handshakes and anti-entropy on every live link until linked phones agree (or `rounds` run out). */
  async settle(rounds = 40): Promise<void> {
    for (let r = 0; r < rounds; r++) {
      for (const l of this.links) {
        if (!l.up) continue;
        l.b.replica.receive(Y.encodeStateAsUpdate(l.a.doc, Y.encodeStateVector(l.b.doc)), { name: l.a.name, origin: l.a });
        l.a.replica.receive(Y.encodeStateAsUpdate(l.b.doc, Y.encodeStateVector(l.a.doc)), { name: l.b.name, origin: l.b });
        l.ab.sendDigest(true);
        l.ba.sendDigest(true);
      }
      await sleep(20);
      if (this.quiet()) return;
    }
  }

  private quiet(): boolean {
    return this.links.every((l) => !l.up || (sameIds(l.a, l.b) && l.a.replica.uncarriedCount === 0 && l.b.replica.uncarriedCount === 0));
  }
}

export function sameIds(a: MeshPhone, b: MeshPhone): boolean {
  return a.replica.admission.ids().join() === b.replica.admission.ids().join();
}

export function viewOf(p: MeshPhone): GameView {
  return reduceLog(p.replica.gameId, [...p.replica.entries()], { verifier: p.replica.verifier });
}

/** The whole view's hash (state and reports alike). */
export function viewHash(p: MeshPhone): string {
  return stateHash(JSON.parse(JSON.stringify(viewOf(p))) as unknown);
}
