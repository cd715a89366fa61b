// What a stranger on the internet can send the server, generated from a seed (issue 30): request
// targets mixing `%`, `//`, `@`, `\`, NULs and `..`, bad methods and versions, huge and repeated
// headers, bad Content-Length / Transfer-Encoding, garbage bodies to /relay/v1, bad WebSocket
// upgrades, and real upgrades to "/" and "/relay" followed by frames no WebSocket client sends.
// `malformed(seed, index)` is a pure function of its arguments, so a failure names its seed and
// index and the very bytes can be sent again. `sendRaw` writes them on a raw TCP socket (node:net:
// an HTTP or WebSocket client would refuse to send most of them), bounded in time.
import { connect } from 'node:net';
import { relayKeysFor } from '../../../src/net/relay/keys';
import { picker } from '../../../src/util/prng';

export interface Malformed {
  readonly seed: number;
  readonly index: number;
  /** What it is, for a failure message. */
  readonly label: string;
  /** Written on connecting, a tick apart (a request split across TCP segments). */
  readonly request: readonly Buffer[];
  /** Written once the server has answered the request's head (its 101): WebSocket frames. */
  readonly afterHead?: Buffer;
  /** Half-closes the socket after writing; otherwise it is left open until the server closes it
   *  or it has been idle for a while. */
  readonly end: boolean;
}

type Pick = (n: number) => number;

/** The generator of one input: everything it draws comes from `pick`. */
class Draw {
  constructor(readonly pick: Pick) {}
  int(lo: number, hi: number): number {
    return lo + this.pick(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.pick(1_000_000) < p * 1_000_000;
  }
  one<T>(xs: readonly T[]): T {
    return xs[this.pick(xs.length)]!;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.pick(256);
    return b;
  }
  word(n = this.int(1, 12)): string {
    let s = '';
    for (let i = 0; i < n; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789-_'[this.pick(38)];
    return s;
  }
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');

// --- request targets -----------------------------------------------------------------------

const PIECES = [
  '%',
  '%zz',
  '%00',
  '%0',
  '%%',
  '%G0',
  '%2e%2e',
  '%2E%2e%2f',
  '%2f',
  '%5c',
  '%c0%af',
  '%ff',
  '%e0%a4%a',
  '%ed%a0%80',
  '%u0041',
  '//',
  '//@',
  '@',
  '\\',
  '\\\\',
  '\0',
  '..',
  '.',
  '/',
  '?',
  '#',
  ';',
  ':',
  '[',
  ']',
  '~',
  '*',
  '+',
  '&',
  '=',
  'relay',
  'relay/v1',
  'healthz',
  'metrics',
  'index.html',
  'sw.mjs',
  'assets',
  'map',
  'manifest.webmanifest',
  '\u00e9',
  '\u00ff\u00fe',
  '\t',
  '\r',
  ' ',
];

function path(d: Draw): string {
  const n = d.int(1, 8);
  let p = d.chance(0.85) ? '/' : '';
  for (let i = 0; i < n; i++) p += d.chance(0.2) ? d.word() : d.one(PIECES);
  if (d.chance(0.3)) p += '/';
  return p;
}

function target(d: Draw): string {
  switch (d.pick(14)) {
    case 0:
      return `http://127.0.0.1${path(d)}`; // absolute-form
    case 1:
      return `${d.one(['http', 'https', 'ws', 'file', 'javascript'])}://${d.one(['x', '@', '127.0.0.1:0', '[::1]', 'a@b', '%', ''])}${path(d)}`;
    case 2:
      return `${d.one(['127.0.0.1', 'example.com', '[::1]', 'x'])}:${d.one(['443', '0', '99999', '', 'x'])}`; // authority-form
    case 3:
      return '*';
    case 4:
      return '/' + d.one(['a', '%', '/', '%2e', '\\', '@']).repeat(d.int(2_000, 70_000)); // very long
    case 5:
      return d.one(['/relay', '/relay/v1', '/healthz', '/metrics']) + d.one(['', '/', '//', '?', '?x=%', '#', '%', '%00', '/..', '\\', '/./']);
    case 6:
      return '';
    default:
      return path(d);
  }
}

const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'CONNECT', 'TRACE'];
const BAD_METHODS = ['get', 'G\0ET', 'GE T', 'PRI', 'BREW', '', 'X'.repeat(300), 'GET\t', '\u00c9T', '0', '-'];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'];
const BAD_VERSIONS = ['HTTP/2.0', 'HTTP/1.9', 'HTTP/9.9', 'HTTP/1', 'HTTP/1.1 x', 'http/1.1', 'HTTP/1.1\0', 'HTTP/01.1', 'HTTP/1.1.1', '', 'HTTP/-1.1'];

function requestLine(d: Draw): { method: string; line: string } {
  const method = d.chance(0.85) ? d.one(METHODS) : d.one(BAD_METHODS);
  const version = d.chance(0.88) ? d.one(VERSIONS) : d.one(BAD_VERSIONS);
  const sep = d.chance(0.95) ? ' ' : d.one(['  ', '\t', '', ' \0 ']);
  return { method, line: `${method}${sep}${target(d)}${sep}${version}` };
}

function head(line: string, headers: readonly string[], close = true): string {
  return `${line}\r\n${['Host: 127.0.0.1', ...headers, ...(close ? ['Connection: close'] : [])].map((h) => `${h}\r\n`).join('')}\r\n`;
}

// --- headers -----------------------------------------------------------------------------------

const HEADER_NAMES = [
  'Host',
  'Content-Length',
  'Transfer-Encoding',
  'Connection',
  'Upgrade',
  'Origin',
  'X-Forwarded-For',
  'Cookie',
  'Accept',
  'Sec-WebSocket-Key',
  'Sec-WebSocket-Version',
  'Expect',
  'Range',
  'If-None-Match',
  'X-Big',
];

function oddHeader(d: Draw): string {
  switch (d.pick(9)) {
    case 0:
      return `${d.one(HEADER_NAMES)}:${d.one(['', ' ', '\0', '%', '\u00ff'])}`;
    case 1:
      return `Bad Name: x`;
    case 2:
      return `X-Nul: a\0b`;
    case 3:
      return `X-Fold: a\r\n b`; // obsolete line folding
    case 4:
      return `: no name`;
    case 5:
      return `X-Cr: a\rb`;
    case 6:
      return `X-Lf: a\nb`;
    case 7:
      return `X-Forwarded-For: ${d.one(['1.2.3.4', '::1', 'x', '%', '999.1.1.1, 10.0.0.1', ', , ,', '[::1]:80'])}`;
    default:
      return `${d.word()}: ${d.word()}`;
  }
}

function hugeHeaders(d: Draw): { label: string; headers: string[] } {
  switch (d.pick(4)) {
    case 0: {
      const n = d.int(17 * 1024, 96 * 1024);
      return { label: `one header of ${n} bytes`, headers: [`X-Big: ${d.one(['a', '%', '\\', '/'])}`.padEnd(n, 'a')] };
    }
    case 1: {
      const n = d.int(17 * 1024, 64 * 1024);
      return { label: `a header name of ${n} bytes`, headers: [`X${'n'.repeat(n)}: 1`] };
    }
    case 2: {
      const n = d.int(200, 3_000);
      return { label: `${n} distinct headers`, headers: Array.from({ length: n }, (_, i) => `X-H${i}: ${'v'.repeat(d.int(0, 40))}`) };
    }
    default: {
      const n = d.int(15 * 1024, 17 * 1024); // about Node's 16 KiB limit, on either side of it
      return { label: `headers of about ${n} bytes`, headers: [`Cookie: ${'c'.repeat(n)}`] };
    }
  }
}

function repeatedHeaders(d: Draw): { label: string; headers: string[] } {
  const name = d.one(HEADER_NAMES);
  const n = d.int(2, d.chance(0.5) ? 20 : 2_000);
  const values = Array.from({ length: n }, () => d.one(['0', '1', '5', '-1', 'chunked', 'websocket', 'close', 'upgrade', '1.2.3.4', 'x', '', '%', 'null']));
  return { label: `${n} × ${name}`, headers: values.map((v) => `${name}: ${v}`) };
}

// --- bodies ------------------------------------------------------------------------------------

function framing(d: Draw): { label: string; headers: string[]; body: string } {
  switch (d.pick(11)) {
    case 0:
      return { label: 'Content-Length larger than the body', headers: [`Content-Length: ${d.int(10, 100_000)}`], body: 'abc' };
    case 1:
      return {
        label: 'a bad Content-Length',
        headers: [`Content-Length: ${d.one(['-1', '1e3', 'x', '0x10', ' 5', '5 5', '99999999999999999999', '1,2', '+5', '', '\0'])}`],
        body: 'hello',
      };
    case 2:
      return { label: 'Content-Length and Transfer-Encoding', headers: ['Content-Length: 4', 'Transfer-Encoding: chunked'], body: '0\r\n\r\n' };
    case 3:
      return { label: 'two Content-Lengths that differ', headers: ['Content-Length: 1', 'Content-Length: 3'], body: 'abc' };
    case 4:
      return {
        label: 'a bad chunk size',
        headers: ['Transfer-Encoding: chunked'],
        body: `${d.one(['zz', '-1', 'fffffffffffffffffff', '', ' 5', '5;' + 'e'.repeat(9_000)])}\r\nhello\r\n0\r\n\r\n`,
      };
    case 5:
      return { label: 'a truncated chunked body', headers: ['Transfer-Encoding: chunked'], body: '10\r\nabc' };
    case 6:
      return {
        label: 'an odd Transfer-Encoding',
        headers: [`Transfer-Encoding: ${d.one(['gzip', 'chunked, gzip', 'identity', 'x', 'chunked\0', 'chunked, chunked', ''])}`],
        body: '5\r\nhello\r\n0\r\n\r\n',
      };
    case 7:
      return { label: 'chunked with a huge trailer', headers: ['Transfer-Encoding: chunked'], body: `0\r\nX-T: ${'t'.repeat(20_000)}\r\n\r\n` };
    case 8:
      return { label: 'Expect: 100-continue and no body', headers: ['Expect: 100-continue', 'Content-Length: 10'], body: '' };
    case 9:
      return { label: 'a body with no length, then garbage', headers: [], body: `\0\u00ff${d.word()}\r\n\r\nGET / HTTP/1.1\r\n` };
    default:
      return {
        label: 'a request smuggled after a body',
        headers: ['Content-Length: 0'],
        body: `GET ${path(d)} HTTP/1.1\r\nHost: x\r\nContent-Length: ${d.int(0, 9)}\r\n\r\n`,
      };
  }
}

const ROOM = 'a'.repeat(64);
const TOKEN = 'b'.repeat(43);
/** Rooms with their true tokens, so some frames pass the checks and reach the store. */
const REAL = Array.from({ length: 4 }, (_, i) => relayKeysFor(`fuzz-${i}`, 'password'));

/** A JSON text a relay client would not send, from garbage to almost right. */
function relayJson(d: Draw, index: number): string {
  const rid = d.one([`r${index}`, '', 'x'.repeat(65), 'bad rid', '\0', '%']);
  const real = d.one(REAL);
  switch (d.pick(16)) {
    case 0:
      return d.bytes(d.int(0, 200)).toString('latin1');
    case 1:
      return d.one(['', 'null', 'true', '0', '[]', '""', '{', '}', '{"t":', '{"t":"ping"', '\u00ff\u00fe{', '1e999', '{"t":"ping","rid":"a"}x']);
    case 2:
      return `${'['.repeat(d.int(1_000, 100_000))}${']'.repeat(d.int(0, 10))}`; // deep nesting
    case 3:
      return JSON.stringify({ t: d.one(['ping', 'append', 'fetch', 'subscribe', 'nope', '__proto__', 'constructor', 'toString', '']), rid });
    case 4:
      return `{"__proto__":{"t":"ping"},"constructor":{"prototype":{"x":1}},"rid":"a","t":"fetch"}`;
    case 5:
      return JSON.stringify({
        t: 'append',
        rid: 'a',
        room: d.one([ROOM, ROOM.toUpperCase(), real.room, '', 'x']),
        token: d.one([TOKEN, real.token, '']),
        id: d.word(22),
        blob: d.one(['', '!!', '%', 'A'.repeat(d.int(1, 4_000)), '\0']),
      });
    case 6:
      return JSON.stringify({
        t: 'fetch',
        rid: 'a',
        room: real.room,
        token: real.token,
        after: d.one(['', '0', '-1', '99999999999999999999', '1-2-3', 'x', '1700000000000-3']),
        limit: d.one([1, 0, -1, 1e9, 1.5, NaN, null, '5']),
      });
    case 7:
      return JSON.stringify({
        t: 'append',
        rid: `a${index}`,
        room: real.room,
        token: real.token,
        id: d.word(22),
        blob: d.bytes(d.int(0, 200)).toString('base64url'),
      });
    case 8:
      return JSON.stringify({
        t: 'push-register',
        rid: 'a',
        room: real.room,
        token: real.token,
        endpoint: d.one([
          'https://x',
          'http://fcm.googleapis.com/x',
          'https://127.0.0.1/x',
          'https://fcm.googleapis.com:8443/',
          'https://a@fcm.googleapis.com/',
          'https://fcm.googleapis.com/fcm/send/x',
          '%',
        ]),
        p256dh: d.word(87),
        auth: d.word(22),
      });
    case 9:
      return JSON.stringify({
        t: 'notify',
        rid: 'a',
        room: real.room,
        token: real.token,
        payload: d.one(['', '!', d.word(100), 'A'.repeat(2_000)]),
        except: d.one([undefined, '', 'x', 5]),
      });
    case 10:
      return JSON.stringify({
        t: 'push-unregister',
        rid: 'a',
        room: real.room,
        token: real.token,
        endpoint: d.one(['', '%', 'https://fcm.googleapis.com/x', '\\\\x']),
      });
    case 11:
      return JSON.stringify({ t: d.one(['subscribe', 'unsubscribe']), rid: 'a', room: d.one([real.room, ROOM]), token: d.one([real.token, TOKEN]) });
    case 12:
      return JSON.stringify({ t: 'ping', rid: 'a', extra: 'x'.repeat(d.int(0, 10_000)) });
    case 13:
      return JSON.stringify({ t: 'push-key', rid: d.one(['a', 'k'.repeat(64)]) });
    case 14:
      return `{"t":"fetch","rid":"a","room":${d.one(['1e999', '-0', '{"a":1}', '["x"]', '"\\ud800"', '"\\u0000"'])},"token":"${TOKEN}","after":""}`;
    default:
      return JSON.stringify(Object.fromEntries(Array.from({ length: d.int(1, 2_000) }, (_, i) => [`k${i}`, i])));
  }
}

// --- WebSocket ---------------------------------------------------------------------------------

const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

function upgradeHead(p: string, extra: readonly string[] = [], version = '13', key: string | null = WS_KEY): string {
  return head(
    `GET ${p} HTTP/1.1`,
    ['Connection: Upgrade', 'Upgrade: websocket', `Sec-WebSocket-Version: ${version}`, ...(key === null ? [] : [`Sec-WebSocket-Key: ${key}`]), ...extra],
    false,
  );
}

function badUpgrade(d: Draw): { label: string; text: string } {
  const p = d.chance(0.5) ? d.one(['/', '/relay', '/relay/', '/relay//', '/?x', '/relay?x=%']) : target(d);
  switch (d.pick(12)) {
    case 0:
      return { label: `an upgrade to ${JSON.stringify(p).slice(0, 80)} with no key`, text: upgradeHead(p, [], '13', null) };
    case 1:
      return {
        label: 'an upgrade with an invalid key',
        text: upgradeHead(p, [], '13', d.one(['', 'x', '%%%%', 'dGhl', 'A'.repeat(200), '\0\0\0', 'dGhlIHNhbXBsZSBub25jZQ'])),
      };
    case 2:
      return { label: 'an upgrade of the wrong version', text: upgradeHead(p, [], d.one(['8', '0', '14', '-13', 'x', '', '13, 8', '99999999999999999999'])) };
    case 3:
      return {
        label: 'an upgrade to something else',
        text: head(
          `GET ${p} HTTP/1.1`,
          ['Connection: Upgrade', `Upgrade: ${d.one(['h2c', 'foo', 'websocket/2', '', 'WebSocket, h2c', '\0'])}`, `Sec-WebSocket-Key: ${WS_KEY}`],
          false,
        ),
      };
    case 4:
      return {
        label: 'Connection: upgrade with no Upgrade',
        text: head(`GET ${p} HTTP/1.1`, ['Connection: upgrade', `Sec-WebSocket-Key: ${WS_KEY}`, 'Sec-WebSocket-Version: 13'], false),
      };
    case 5:
      return {
        label: 'a POST upgrade with a body',
        text: `${head(`POST ${p} HTTP/1.1`, ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${WS_KEY}`, 'Content-Length: 5'], false)}hello`,
      };
    case 6:
      return {
        label: 'an upgrade with odd protocols and extensions',
        text: upgradeHead(p, [
          `Sec-WebSocket-Protocol: ${d.one(['', ',', 'a b', '\0', 'x,'.repeat(2000)])}`,
          `Sec-WebSocket-Extensions: ${d.one(['permessage-deflate; client_max_window_bits=99', 'x;;;', '', '%'])}`,
        ]),
      };
    case 7:
      return { label: 'an HTTP/1.0 upgrade', text: upgradeHead(p).replace('HTTP/1.1', 'HTTP/1.0') };
    case 8:
      return {
        label: 'an upgrade with many keys',
        text: upgradeHead(
          p,
          Array.from({ length: d.int(2, 500) }, () => `Sec-WebSocket-Key: ${d.one([WS_KEY, 'x', ''])}`),
        ),
      };
    case 9:
      return { label: 'an upgrade with garbage after its head', text: upgradeHead(p) + d.bytes(d.int(1, 3_000)).toString('latin1') };
    case 10:
      return {
        label: 'an upgrade with an odd Origin and X-Forwarded-For',
        text: upgradeHead(p, [`Origin: ${d.one(['null', '%', 'http://x', '\0', ''])}`, `X-Forwarded-For: ${d.one(['1.1.1.1', '::', 'x', '%'])}`]),
      };
    default:
      return {
        label: `an upgrade to an odd path`,
        text: upgradeHead(
          d.one(['//', '//@', '/%', '/%00', '/relay%00', '/healthz', '/metrics', '/relay/v1', '\\relay', '/relay/../', '*', '']) + d.one(['', '?', '#']),
        ),
      };
  }
}

interface FrameSpec {
  fin?: boolean;
  rsv?: number;
  opcode: number;
  payload: Buffer;
  masked?: boolean;
  /** Claims this length instead of the payload's (the payload is still sent as it is). */
  claim?: bigint;
}

function wsFrame(d: Draw, f: FrameSpec): Buffer {
  const len = f.claim ?? BigInt(f.payload.length);
  const masked = f.masked ?? true;
  const first = ((f.fin ?? true) ? 0x80 : 0) | (((f.rsv ?? 0) & 7) << 4) | (f.opcode & 0xf);
  let lenBytes: Buffer;
  if (len < 126n) lenBytes = Buffer.from([Number(len) | (masked ? 0x80 : 0)]);
  else if (len < 65536n) {
    lenBytes = Buffer.alloc(3);
    lenBytes[0] = 126 | (masked ? 0x80 : 0);
    lenBytes.writeUInt16BE(Number(len), 1);
  } else {
    lenBytes = Buffer.alloc(9);
    lenBytes[0] = 127 | (masked ? 0x80 : 0);
    lenBytes.writeBigUInt64BE(len & 0xffffffffffffffffn, 1);
  }
  const key = masked ? d.bytes(4) : Buffer.alloc(0);
  const payload = Buffer.from(f.payload);
  if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from([first]), lenBytes, key, payload]);
}

const INVALID_UTF8 = [
  [0xc3, 0x28],
  [0xa0, 0xa1],
  [0xe2, 0x28, 0xa1],
  [0xf0, 0x28, 0x8c, 0x28],
  [0xed, 0xa0, 0x80], // a lone surrogate
  [0xc0, 0xaf], // overlong '/'
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xff],
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
];

/** A JSON text a y-webrtc signaling client would not send, or one it would. */
function signalingJson(d: Draw, topic: string): string {
  switch (d.pick(10)) {
    case 0:
      return JSON.stringify({
        type: 'subscribe',
        topics: d.one([topic, [topic, 5, null, {}], 'x'.repeat(600), Array.from({ length: d.int(1, 100) }, (_, i) => `t${i}`), [topic.repeat(40)]]),
      });
    case 1:
      return JSON.stringify({ type: 'publish', topic: d.one([topic, 'not-mine', 5, null, { a: 1 }]), data: { x: d.word() } });
    case 2:
      return JSON.stringify({ type: 'subscribe', topics: [topic] }); // a later frame may publish to it
    case 3:
      return JSON.stringify({ type: 'unsubscribe', topics: d.one([[topic], 'x', null, [1, 2]]) });
    case 4:
      return JSON.stringify({ type: d.one(['ping', 'pong', '__proto__', 'constructor', '', 5]) });
    case 5:
      return `{"type":"publish","topic":"${topic}","data":"${'\\'.repeat(d.int(1, 9))}"}`;
    case 6:
      return d.one(['', 'null', '[]', '"x"', '{', '{"type":"publish","topic":', '{}}', '{"type":"subscribe","topics":["a"]}}}}', '1e999']);
    case 7:
      return `${'{"a":'.repeat(d.int(100, 20_000))}1`;
    case 8:
      return JSON.stringify({ type: 'publish', topic, data: 'x'.repeat(d.int(1_000, 70_000)) });
    default:
      return d.bytes(d.int(0, 100)).toString('latin1');
  }
}

function wsFrames(d: Draw, relay: boolean, index: number): { label: string; frames: Buffer } {
  const topic = `fuzz-topic-${d.pick(8)}`;
  const text = (s: string) => Buffer.from(s, 'utf8');
  const json = () => text(relay ? relayJson(d, index) : signalingJson(d, topic));
  const frames: Buffer[] = [];
  const kinds: string[] = [];
  const n = d.int(1, 6);
  for (let i = 0; i < n; i++) {
    // Well-formed frames of bad JSON most often (they reach the handlers), protocol errors otherwise.
    switch (d.pick(24)) {
      case 0:
        kinds.push('bad opcode');
        frames.push(wsFrame(d, { opcode: d.one([3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf]), payload: d.bytes(d.int(0, 20)) }));
        break;
      case 1:
        kinds.push('reserved bits');
        frames.push(wsFrame(d, { opcode: d.one([1, 2, 9]), rsv: d.int(1, 7), payload: json() }));
        break;
      case 2:
        kinds.push('unmasked');
        frames.push(wsFrame(d, { opcode: d.one([1, 2, 8, 9]), payload: json(), masked: false }));
        break;
      case 3:
        kinds.push('oversized length');
        frames.push(
          wsFrame(d, {
            opcode: d.one([1, 2, 0]),
            payload: d.bytes(d.int(0, 64)),
            claim: d.one([2n ** 63n - 1n, 2n ** 64n - 1n, 2n ** 53n + 1n, 2n ** 32n, 70_000_000n, 600_000n]),
          }),
        );
        break;
      case 4:
        kinds.push('a length longer than the payload');
        frames.push(wsFrame(d, { opcode: 1, payload: text('{"t":"ping"'), claim: BigInt(d.int(12, 200_000)) }));
        break;
      case 5:
        kinds.push('continuation with no start');
        frames.push(wsFrame(d, { opcode: 0, payload: json() }));
        break;
      case 6: {
        kinds.push('fragments');
        const whole = json();
        const cut = d.int(0, whole.length);
        frames.push(wsFrame(d, { opcode: 1, fin: false, payload: whole.subarray(0, cut) }));
        if (d.chance(0.3)) frames.push(wsFrame(d, { opcode: d.one([1, 2]), payload: text('{}') })); // a new message mid-fragment
        if (d.chance(0.3)) frames.push(wsFrame(d, { opcode: 9, payload: text('mid') })); // a ping between fragments: allowed
        if (d.chance(0.8)) frames.push(wsFrame(d, { opcode: 0, payload: whole.subarray(cut) }));
        break;
      }
      case 7:
        kinds.push('many fragments');
        frames.push(wsFrame(d, { opcode: 1, fin: false, payload: text('{') }));
        for (let k = d.int(10, 2_000); k > 0; k--) frames.push(wsFrame(d, { opcode: 0, fin: false, payload: text(' ') }));
        break;
      case 8:
        kinds.push('fragmented or long control frame');
        frames.push(wsFrame(d, { opcode: d.one([8, 9, 10]), fin: d.chance(0.5), payload: d.bytes(d.chance(0.5) ? d.int(126, 300) : d.int(0, 10)) }));
        break;
      case 9: {
        kinds.push('invalid UTF-8');
        const bad = Buffer.from(d.one(INVALID_UTF8));
        const around = json();
        const at = d.int(0, around.length);
        frames.push(wsFrame(d, { opcode: 1, payload: Buffer.concat([around.subarray(0, at), bad, around.subarray(at)]) }));
        break;
      }
      case 10: {
        kinds.push('odd close');
        const code = Buffer.alloc(2);
        code.writeUInt16BE(d.one([0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 3000, 4999, 5000, 65535]));
        frames.push(
          wsFrame(d, {
            opcode: 8,
            payload: d.one([Buffer.from([3]), code, Buffer.concat([code, Buffer.from(d.one(INVALID_UTF8))]), Buffer.concat([code, text('bye')])]),
          }),
        );
        break;
      }
      case 11:
        kinds.push('binary garbage');
        frames.push(wsFrame(d, { opcode: 2, payload: d.chance(0.5) ? json() : d.bytes(d.int(0, 2_000)) }));
        break;
      case 12:
        kinds.push('ping or pong');
        frames.push(wsFrame(d, { opcode: d.one([9, 10]), payload: d.bytes(d.int(0, 125)) }));
        break;
      case 13:
        kinds.push('frame bytes cut short');
        frames.push(wsFrame(d, { opcode: 1, payload: json() }).subarray(0, d.int(1, 6)));
        break;
      default:
        kinds.push('JSON');
        frames.push(wsFrame(d, { opcode: 1, payload: json() }));
    }
  }
  if (d.chance(0.3)) {
    kinds.push('close');
    frames.push(wsFrame(d, { opcode: 8, payload: Buffer.from([0x03, 0xe8]) }));
  }
  return { label: kinds.join(', '), frames: Buffer.concat(frames) };
}

// --- the inputs --------------------------------------------------------------------------------

/** Splits `b` into up to five pieces at points drawn from `d` (most often leaves it whole). */
function split(d: Draw, b: Buffer): Buffer[] {
  if (b.length < 2 || d.chance(0.7)) return [b];
  const cuts = [...new Set(Array.from({ length: d.int(1, 4) }, () => d.int(1, b.length - 1)))].sort((x, y) => x - y);
  return [0, ...cuts].map((c, i) => b.subarray(c, i < cuts.length ? cuts[i] : b.length));
}

/** Input `index` of the run with `seed`: the same bytes every time. */
export function malformed(seed: number, index: number): Malformed {
  const d = new Draw(picker((Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + Math.imul(index + 1, 0x85ebca6b)) >>> 0));
  const end = d.chance(0.5);
  const input = (label: string, request: Buffer, afterHead?: Buffer): Malformed => ({
    seed,
    index,
    label,
    request: split(d, request),
    ...(afterHead ? { afterHead } : {}),
    end,
  });
  const kind = d.pick(100);
  if (kind < 16) {
    const { line } = requestLine(d);
    const headers = Array.from({ length: d.int(0, 3) }, () => oddHeader(d));
    return input(`request line ${JSON.stringify(line.slice(0, 120))}`, latin1(head(line, headers, d.chance(0.8))));
  }
  if (kind < 25) {
    const { line } = requestLine(d);
    const h = hugeHeaders(d);
    return input(`${h.label} on ${JSON.stringify(line.slice(0, 80))}`, latin1(head(line, h.headers)));
  }
  if (kind < 32) {
    const { line } = requestLine(d);
    const h = repeatedHeaders(d);
    return input(`${h.label} on ${JSON.stringify(line.slice(0, 80))}`, latin1(head(line, h.headers)));
  }
  if (kind < 42) {
    const p = d.chance(0.6) ? d.one(['/relay/v1', '/', '/healthz', '/index.html']) : target(d);
    const f = framing(d);
    return input(
      `${f.label}, POST ${JSON.stringify(p.slice(0, 80))}`,
      latin1(head(`${d.one(['POST', 'PUT', 'GET'])} ${p} HTTP/1.1`, f.headers, d.chance(0.7)) + f.body),
    );
  }
  if (kind < 54) {
    const body = Buffer.from(relayJson(d, index), d.chance(0.5) ? 'utf8' : 'latin1');
    const big = d.chance(0.02) ? Buffer.alloc(d.int(257 * 1024, 600 * 1024), 0x5b) : null;
    const payload = big ?? body;
    const p = d.chance(0.85) ? '/relay/v1' : d.one(['/relay/v1/', '/relay/v1//', '/relay/v1?x=%', '/relay//v1', '/relay/v1%00', '/relay/v1#x', '/RELAY/V1']);
    const method = d.chance(0.9) ? 'POST' : d.one(['GET', 'PUT', 'OPTIONS', 'HEAD', 'DELETE']);
    const headers = [
      `Content-Length: ${d.chance(0.9) ? payload.length : d.int(0, payload.length + 100)}`,
      `Content-Type: ${d.one(['application/json', 'text/plain', '', 'application/json; charset=latin1', 'multipart/form-data; boundary=x'])}`,
      ...(d.chance(0.3) ? [`Origin: ${d.one(['http://evil.example', 'null', '%', ''])}`] : []),
    ];
    return input(
      `${method} ${p} with ${big ? `${big.length} bytes` : JSON.stringify(body.toString('latin1').slice(0, 100))}`,
      Buffer.concat([latin1(head(`${method} ${p} HTTP/1.1`, headers, d.chance(0.8))), payload]),
    );
  }
  if (kind < 66) {
    const u = badUpgrade(d);
    return input(u.label, latin1(u.text));
  }
  if (kind < 95) {
    const relay = d.chance(0.5);
    const p = relay ? d.one(['/relay', '/relay', '/relay/', '/relay?x=1']) : d.one(['/', '/', '/?x', '/game/%', '//']);
    const { label, frames } = wsFrames(d, relay, index);
    const upgrade = latin1(upgradeHead(p));
    // Half the time the frames ride in the same write as the upgrade (the server's `head`).
    if (d.chance(0.5)) return input(`upgrade to ${p}, then at once: ${label}`, Buffer.concat([upgrade, frames]));
    return input(`upgrade to ${p}, then: ${label}`, upgrade, frames);
  }
  switch (d.pick(6)) {
    case 0:
      return input('random bytes', d.bytes(d.int(1, 4_000)));
    case 1:
      return input('an HTTP/2 preface', latin1('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0'));
    case 2:
      return input('a TLS ClientHello', Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]), d.bytes(200)]));
    case 3:
      return input('blank lines', latin1(d.one(['\r\n', '\r\n\r\n', '\n\n\n', '\r', '\0', ' '])));
    case 4:
      return input(`a request line of ${d.int(70_000, 200_000)} bytes`, latin1(`GET /${'x'.repeat(d.int(70_000, 200_000))}`));
    default: {
      const good = head('GET / HTTP/1.1', [], false);
      const { line } = requestLine(d);
      return input(`pipelined, then ${JSON.stringify(line.slice(0, 80))}`, latin1(good + good + head(line, [oddHeader(d)]) + good));
    }
  }
}

export interface SendResult {
  readonly input: Malformed;
  /** The first line the server answered with ('' if none). */
  readonly status: string;
  /** How the connection ended: the server closed it (or reset it), or it was idle or too long. */
  readonly ended: 'closed' | 'idle' | 'too long';
}

export interface SendOptions {
  readonly localAddress?: string;
  /** Done once the server has said something and then nothing for this long... */
  readonly idleMs?: number;
  /** ...or has said nothing for this long since the last byte written (a loaded server is slow). */
  readonly silentMs?: number;
  /** Done after this long whatever happens. */
  readonly maxMs?: number;
}

/**
 * Writes `input` on a new TCP connection and waits until the server closes it, it has been idle
 * for a while, or `maxMs` has passed; the socket is destroyed then, whatever happened.
 */
export function sendRaw(port: number, input: Malformed, opts: SendOptions = {}): Promise<SendResult> {
  const idleMs = opts.idleMs ?? 250;
  const silentMs = opts.silentMs ?? 600;
  const maxMs = opts.maxMs ?? 4_000;
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
    const started = Date.now();
    let got = Buffer.alloc(0);
    let heard = false;
    let last = started;
    let settled = false;
    let headDone = false;
    const done = (ended: SendResult['ended']) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      socket.destroy();
      const firstLine = got.subarray(0, Math.max(0, got.indexOf('\r\n'))).toString('latin1');
      resolve({ input, status: firstLine, ended });
    };
    const watch = setInterval(() => {
      const now = Date.now();
      if (now - started >= maxMs) done('too long');
      else if (now - last >= (heard ? idleMs : silentMs)) done('idle');
    }, 50);
    socket.on('error', () => done('closed'));
    socket.on('close', () => done('closed'));
    const finish = () => {
      last = Date.now();
      if (input.end && !settled) socket.end();
    };
    socket.on('data', (chunk: Buffer) => {
      heard = true;
      last = Date.now();
      if (got.length < 4_096) got = Buffer.concat([got, chunk]);
      if (!headDone && input.afterHead && got.includes('\r\n\r\n')) {
        headDone = true;
        if (got.toString('latin1').startsWith('HTTP/1.1 101') && !settled) socket.write(input.afterHead, finish);
        else finish();
      }
    });
    socket.once('connect', () => {
      const pieces = [...input.request];
      const next = () => {
        last = Date.now();
        if (settled) return;
        const piece = pieces.shift();
        if (piece === undefined) {
          if (!input.afterHead) finish();
          return;
        }
        socket.write(piece, () => setImmediate(next));
      };
      next();
    });
  });
}

/** Sends inputs `from` to `to - 1` of the run with `seed`, `concurrency` at a time. */
export async function sendBatch(
  port: number,
  seed: number,
  from: number,
  to: number,
  opts: SendOptions & { readonly concurrency?: number; readonly inFlight?: Set<number> } = {},
): Promise<SendResult[]> {
  const results: SendResult[] = [];
  let next = from;
  const worker = async () => {
    while (next < to) {
      const index = next++;
      const input = malformed(seed, index);
      opts.inFlight?.add(index);
      results.push(await sendRaw(port, input, opts));
      opts.inFlight?.delete(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 32, to - from) }, worker));
  return results;
}
