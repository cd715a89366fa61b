// A phone in table mode, driven by the test through window.table: it shows its pairing code as a QR
// code on #qr and "scans" a picture of another phone's screen, either handed over as PNG bytes (a
// stand-in for a camera frame) or through a real (fake-device) camera, decoding it with jsqr.
import * as Y from 'yjs';
import { appendMessage, readLog } from '../../../../src/net/log-doc';
import { TableHost, TableProvider, drawQr, joinTable, qrSize, readQr, scanWithCamera, type TableJoin } from '../../../../src/net/table';

interface Shown {
  readonly bytes: number;
  readonly version: number;
}

const doc = new Y.Doc();
const provider = new TableProvider(doc);
let host: TableHost | undefined;
let join: TableJoin | undefined;
let webrtcPeers = (): number => 0;
const events: string[] = [];
provider.onError((e) => events.push(`error: ${String(e)}`));

async function show(code: Uint8Array): Promise<Shown> {
  await drawQr(document.querySelector<HTMLCanvasElement>('#qr')!, code, 6);
  return { bytes: code.length, version: qrSize(code).version };
}

async function frameOf(png: string): Promise<ImageData> {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
}

/** A scanned code: the host accepts a guest's answer; a guest answers the host's offer. */
async function use(code: Uint8Array): Promise<Shown> {
  if (host) {
    host.accept(code).then(
      () => events.push('guest linked'),
      (e: unknown) => events.push(`accept failed: ${String(e)}`),
    );
    return { bytes: code.length, version: qrSize(code).version };
  }
  join = await joinTable(provider, code);
  join.joined.then(
    () => events.push('joined'),
    (e: unknown) => events.push(`join failed: ${String(e)}`),
  );
  return show(join.code);
}

const table = {
  becomeHost(): void {
    host = new TableHost(provider);
    document.querySelector('#role')!.textContent = 'host';
  },
  /** Host: a new invitation, drawn as a QR code. */
  async invite(): Promise<Shown> {
    return show((await host!.invite()).code);
  },
  /** Reads the QR code in a picture of another phone's screen. */
  async scan(png: string): Promise<Shown> {
    const code = readQr(await frameOf(png));
    if (!code) throw new Error('no QR code in the frame');
    return use(code);
  },
  /** The same through the camera, as the app does it. */
  async scanCamera(): Promise<Shown> {
    return use(await scanWithCamera({ want: host ? 'answer' : 'offer', signal: AbortSignal.timeout(20_000) }));
  },
  /** Grey levels (BT.601 luma) of a picture, base64, for a test that plays it to a fake camera. */
  async luma(png: string): Promise<{ width: number; height: number; y: string }> {
    const frame = await frameOf(png);
    let y = '';
    for (let i = 0; i < frame.data.length; i += 4) {
      y += String.fromCharCode(Math.round(0.299 * frame.data[i]! + 0.587 * frame.data[i + 1]! + 0.114 * frame.data[i + 2]!));
    }
    return { width: frame.width, height: frame.height, y: btoa(y) };
  },
  say(text: string): void {
    appendMessage(doc, new TextEncoder().encode(text));
  },
  /** Many messages in one transaction: a long game's worth of log. */
  sayMany(prefix: string, count: number, bytes: number): void {
    const messages = Array.from({ length: count }, (_, i) => new TextEncoder().encode(`${prefix} ${i} `.padEnd(bytes, '.')));
    doc.transact(() => messages.forEach((m) => appendMessage(doc, m)));
  },
  heard(): string[] {
    return readLog(doc)
      .map((m) => new TextDecoder().decode(m))
      .sort();
  },
  count: (): number => readLog(doc).length,
  status: () => ({ ...provider.status, events: [...events] }),
  /** Also joins the game over y-webrtc (the other provider of the same doc). */
  async connectWebrtc(gameId: string, password: string, signaling: string): Promise<void> {
    const { connectGame } = await import('../../../../src/net/provider');
    const connection = connectGame(doc, { gameId, password, signaling: [signaling] });
    webrtcPeers = () => connection.status().webrtcPeers;
  },
  webrtcPeers: (): number => webrtcPeers(),
};

declare global {
  interface Window {
    table: typeof table;
  }
}
window.table = table;
