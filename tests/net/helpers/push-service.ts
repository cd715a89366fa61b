// A fake Web Push service on 127.0.0.1 for relay tests: a real HTTPS server (a self-signed
// certificate made with Debian's openssl) that plays the browser vendor's push service. It checks
// every push as a real one must (RFC 8292: the VAPID JWT is ES256 over the relay's public key, for
// this origin, not expired), and decrypts the aes128gcm payload (RFC 8188/8291) with the device's
// own keys, made here with node:crypto ECDH as a browser makes them. The decryption is written
// here, from the RFCs, so the relay's library is checked by a second implementation.
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './relay';

export interface TestCert {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certFile: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 (P-256, valid one day), made by openssl. */
export function makeCert(): TestCert {
  const tmp = tempDir('pacto-push-cert-');
  const certFile = join(tmp.dir, 'cert.pem');
  const keyFile = join(tmp.dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    {
      stdio: 'ignore',
    },
  );
  return { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8'), certFile, remove: tmp.remove };
}

/** A browser's side of one subscription: its keys, and what a registration sends. */
export interface FakeDevice {
  readonly id: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  /** What the push service answers this device's pushes with (201; 404 or 410: gone). */
  status: number;
}

export interface ReceivedPush {
  readonly device: string;
  readonly at: number;
  /** The decrypted payload; null for an empty push. */
  readonly payload: Buffer | null;
  readonly ttl: string | undefined;
  readonly topic: string | undefined;
  readonly urgency: string | undefined;
  readonly claims: { aud: string; exp: number; sub: string };
  /** The VAPID public key the push was signed with (the `k` of the Authorization header). */
  readonly vapidKey: string;
}

export interface FakePushService {
  readonly origin: string;
  readonly received: ReceivedPush[];
  /** Pushes refused by the checks (bad signature, wrong key, undecryptable), with the reason. */
  readonly rejected: string[];
  /** Every request, accepted or not. */
  readonly requests: number;
  device(): FakeDevice;
  /** Resolves once `n` pushes have been received in all. */
  waitFor(n: number): Promise<void>;
  /** The relay's published key: pushes signed with another key are refused (403). */
  expectKey(key: string): void;
  stop(): Promise<void>;
}

const b64u = (b: Buffer): string => b.toString('base64url');

/** RFC 8291 decryption of an aes128gcm body for a device (one record). */
export function decryptAes128gcm(body: Buffer, uaPrivate: Buffer, uaPublic: Buffer, authSecret: Buffer): Buffer {
  // RFC 8188 header: salt (16) || rs (4) || idlen (1) || keyid (the server's ECDH public key).
  if (body.length < 21) throw new Error('body shorter than its header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  if (idlen !== 65 || asPublic[0] !== 4) throw new Error('keyid is not an uncompressed P-256 key');
  const records = body.subarray(21 + idlen);
  if (records.length > rs) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(uaPrivate);
  const shared = ecdh.computeSecret(asPublic);
  // RFC 8291 section 3.4: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" 0x00 ua_public as_public, 32)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const plain = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record: data || 0x02 || zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end);
}

/** Verifies a VAPID JWT (ES256) with the raw public key; returns its claims or throws. */
export function verifyVapid(jwt: string, rawKey: Buffer): { aud: string; exp: number; sub: string } {
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) throw new Error('not a JWT');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; typ?: string };
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  if (rawKey.length !== 65 || rawKey[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(rawKey.subarray(1, 33)), y: b64u(rawKey.subarray(33, 65)) }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('bad signature');
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
}

export async function startPushService(cert: TestCert): Promise<FakePushService> {
  const devices = new Map<string, FakeDevice & { priv: Buffer; pub: Buffer; secret: Buffer }>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  let expected: string | null = null;
  let requests = 0;
  let origin = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const refuse = (status: number, why: string): void => {
        rejected.push(why);
        res.writeHead(status).end(why);
      };
      const m = /^\/push\/([a-z0-9]+)$/.exec(req.url ?? '');
      const dev = m ? devices.get(m[1]!) : undefined;
      if (req.method !== 'POST' || !dev) return refuse(404, `no such subscription: ${req.method} ${req.url}`);
      // RFC 8292: Authorization: vapid t=<JWT>, k=<public key>
      const auth = /^vapid t=([A-Za-z0-9_.-]+), ?k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
      if (!auth) return refuse(401, `no VAPID authorization: ${req.headers.authorization}`);
      const [, jwt, k] = auth;
      if (expected !== null && k !== expected) return refuse(403, 'signed with a key other than the relay published');
      let claims: { aud: string; exp: number; sub: string };
      try {
        claims = verifyVapid(jwt!, Buffer.from(k!, 'base64url'));
      } catch (e) {
        return refuse(403, `VAPID: ${(e as Error).message}`);
      }
      const now = Math.floor(Date.now() / 1000);
      if (claims.aud !== origin) return refuse(403, `aud ${claims.aud} is not ${origin}`);
      if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) return refuse(403, `exp ${claims.exp} out of range`);
      if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return refuse(403, `sub ${claims.sub}`);
      const body = Buffer.concat(chunks);
      let payload: Buffer | null = null;
      if (body.length > 0) {
        if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, `content-encoding ${req.headers['content-encoding']}`);
        try {
          payload = decryptAes128gcm(body, dev.priv, dev.pub, dev.secret);
        } catch (e) {
          return refuse(400, `does not decrypt: ${(e as Error).message}`);
        }
      }
      if (dev.status >= 300) return res.writeHead(dev.status).end('gone');
      received.push({
        device: dev.id,
        at: performance.now(),
        payload,
        ttl: req.headers.ttl as string | undefined,
        topic: req.headers.topic as string | undefined,
        urgency: req.headers.urgency as string | undefined,
        claims,
        vapidKey: k!,
      });
      res.writeHead(201, { location: `${origin}/message/${received.length}` }).end();
      for (const w of waiters.filter((x) => x.n <= received.length)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    rejected,
    get requests() {
      return requests;
    },
    device() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(8).toString('hex');
      const d = {
        id,
        endpoint: `${origin}/push/${id}`,
        p256dh: b64u(ecdh.getPublicKey()),
        auth: b64u(randomBytes(16)),
        status: 201,
        priv: ecdh.getPrivateKey(),
        pub: ecdh.getPublicKey(),
        secret: Buffer.alloc(0),
      };
      d.secret = Buffer.from(d.auth, 'base64url');
      devices.set(id, d);
      return d;
    },
    waitFor: (n) => (received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    expectKey(key) {
      expected = key;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
