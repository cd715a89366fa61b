// Web Push from the relay: VAPID keys, the rule for which push endpoints the relay sends to, and
// the sender. The payload is the phone's hint, already sealed under the room's key (or nothing):
// the relay cannot read it, and the push service cannot either (aes128gcm under the device's keys,
// done by the `web-push` library). Node only. The rules and why they are safe: ../README.md.
//
// Why `web-push`: it is the reference Node implementation of RFC 8030/8291/8292 (the
// web-push-libs project, maintained for a decade, used by most Node push servers), it does VAPID
// (ES256 JWT) and aes128gcm payload encryption on node:crypto alone, and its few dependencies are
// pure JavaScript (no native code, nothing downloaded at install).
import { createECDH, createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { parse as legacyParse } from 'node:url';
import webpush from 'web-push';
import { MAX_PUSH_ENDPOINT } from '../protocol';
import type { StoredPush } from './store';

export interface PushOptions {
  /** The VAPID `sub` claim: how a push service reaches the relay's operator (mailto: or https:). */
  readonly subject?: string;
  /** Host names or IP literals exempt from the public-address and port rules (never from https):
   *  for tests (127.0.0.1) or a push service on your own network. */
  readonly allowHosts?: readonly string[];
  /** Extra trusted CA certificates (PEM) for push services, besides Node's own roots (tests: the
   *  fake push service's self-signed certificate). */
  readonly ca?: readonly string[];
  /** A push not answered within this long has failed (default 10 s). */
  readonly timeoutMs?: number;
}

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

export const DEFAULT_VAPID_SUBJECT = 'mailto:relay-operator@pacto.invalid';

/** Parses stored VAPID keys; null if they are not a P-256 key pair. */
export function parseVapidKeys(text: string): VapidKeys | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v.publicKey !== 'string' || typeof v.privateKey !== 'string') return null;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(v.privateKey, 'base64url'));
    if (!ecdh.getPublicKey().equals(Buffer.from(v.publicKey, 'base64url'))) return null;
    return { publicKey: v.publicKey, privateKey: v.privateKey };
  } catch {
    return null;
  }
}

/** Whether base64url `key` is a point on P-256 (a device key the payload can be encrypted for). */
export function isP256Point(key: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(key, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

export const newVapidKeys = (): string => JSON.stringify(webpush.generateVAPIDKeys());

/** The Topic header of a room's pushes: a push service keeps only the latest undelivered push
 *  per topic and device, so pushes to one device collapse per game. 32 base64url characters, and
 *  it does not reveal the room id. */
export function pushTopic(room: string): string {
  return createHash('sha256').update('pacto-relay-push-topic\n').update(room).digest('base64url').slice(0, 32);
}

// Addresses a push service never has: loopback, private, link-local, carrier-grade NAT, multicast,
// documentation and benchmark ranges, IPv4-mapped/NAT64/6to4/Teredo forms (which could embed any of
// them), unique-local IPv6.
// Two lists, one per family: Node's BlockList matches every IPv4 address against an IPv6 rule for
// ::ffff:0:0/96 (as its mapped form), so one shared list would refuse every IPv4 push service.
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC_V4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC_V6.addSubnet(net, bits, 'ipv6');

/** Whether an IP address may be reached as a push service (a public unicast address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(address, 'ipv4') : !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/**
 * The relay's rule for a push endpoint, applied when it is registered (and so before every push):
 * an https URL, with no user name or password, on the default port 443, whose host is a DNS name
 * with a dot (not an IP literal, not localhost or a .local/.internal/.localhost name); and the
 * legacy URL parser that web-push uses must read the same host and port as the WHATWG parser.
 * Hosts in `allowHosts` may be IP literals on any port (still https). When sending, the relay's
 * DNS lookup refuses a name that resolves to any address that is not public (`publicLookup`), so
 * a name that points inside cannot be used either. Returns the endpoint, normalised, or why not.
 */
export function checkEndpoint(endpoint: string, allowHosts: readonly string[] = []): { ok: true; endpoint: string } | { ok: false; reason: string } {
  const no = (reason: string) => ({ ok: false as const, reason });
  if (endpoint.length > MAX_PUSH_ENDPOINT) return no(`an endpoint is at most ${MAX_PUSH_ENDPOINT} characters`);
  if (!/^[\x21-\x7e]+$/.test(endpoint) || endpoint.includes('\\') || endpoint.includes('@'))
    return no('an endpoint is a plain URL (no spaces, backslashes or user name)');
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return no('the endpoint is not a URL');
  }
  if (u.protocol !== 'https:') return no('push endpoints must be https');
  if (u.username !== '' || u.password !== '') return no('an endpoint has no user name or password');
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowHosts.includes(host);
  if (!allowed) {
    if (u.port !== '' && u.port !== '443') return no('push endpoints use port 443');
    if (isIP(host) !== 0) return no('push endpoints are named by a DNS name, not an IP address');
    if (!host.includes('.') || /(^|\.)(localhost|local|internal|localdomain|home|lan|intranet|corp|arpa)\.?$/.test(host))
      return no(`${host} is not a public host name`);
  }
  const legacy = legacyParse(u.href);
  if ((legacy.hostname ?? '').replace(/^\[|\]$/g, '').toLowerCase() !== host || (legacy.port ?? '') !== u.port || legacy.protocol !== 'https:') {
    return no('the endpoint reads differently to different URL parsers');
  }
  return { ok: true, endpoint: u.href };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup for the push agent that fails when a name resolves to any non-public address
 *  (names in `allowHosts` excepted), so DNS cannot point the relay at an internal host. The
 *  connection then goes to the very address checked here (no second lookup to race). */
export function publicLookup(allowHosts: readonly string[] = []) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = allowHosts.includes(hostname.toLowerCase()) ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad || list.length === 0) {
        const e = new Error(`push endpoint host ${hostname} resolves to ${bad ? `a non-public address (${bad.address})` : 'nothing'}`) as NodeJS.ErrnoException;
        e.code = 'EPUSHNOTPUBLIC';
        return callback(e, []);
      }
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

/** How much of a push service's answer is read before the connection is cut (the status is what counts). */
export const PUSH_ANSWER_BYTES = 4096;

/**
 * Sends a request web-push made and resolves with the answer's status once at most
 * PUSH_ANSWER_BYTES of its body were read (the rest is never buffered: the socket is cut), within
 * `deadlineMs` in all (connection, request and answer), else rejects.
 */
function postCapped(details: webpush.RequestDetails, agent: Agent, deadlineMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      f();
    };
    const req = httpsRequest(details.endpoint, { method: details.method, headers: details.headers as Record<string, string>, agent }, (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > PUSH_ANSWER_BYTES) {
          finish(() => resolve(status));
          res.destroy();
          req.destroy();
        }
      });
      res.on('end', () => finish(() => resolve(status)));
      res.on('error', (e) => finish(() => reject(e)));
      res.on('close', () => finish(() => resolve(status)));
    });
    const deadline = setTimeout(() => {
      finish(() => reject(new Error(`the push service did not answer within ${deadlineMs} ms`)));
      req.destroy();
    }, deadlineMs);
    req.on('error', (e) => finish(() => reject(e)));
    req.end(details.body ?? undefined);
  });
}

export interface PushSender {
  /** Encrypts `payload` (null: an empty push) for the device and sends it; 'gone' when the push
   *  service says the subscription no longer exists (404, 410) or its host is not public. */
  send(sub: StoredPush, payload: Uint8Array | null, room: string, ttlSeconds: number): Promise<{ outcome: PushOutcome; detail?: string }>;
  close(): void;
}

export function pushSender(vapid: VapidKeys, options: PushOptions = {}): PushSender {
  const allowHosts = (options.allowHosts ?? []).map((h) => h.toLowerCase());
  const timeout = options.timeoutMs ?? 10_000;
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 32,
    timeout,
    lookup: publicLookup(allowHosts) as never,
    ...(options.ca && options.ca.length > 0 ? { ca: [...rootCertificates, ...options.ca] } : {}),
  });
  const vapidDetails = { subject: options.subject ?? DEFAULT_VAPID_SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  return {
    async send(sub, payload, room, ttlSeconds) {
      try {
        // web-push makes the request (VAPID, aes128gcm); it is sent here, not by its
        // sendNotification, which keeps the whole answer in one string with no bound (a host
        // answering 512 MiB ended the process) and has only an idle timeout (one byte every 2 s
        // held a push for 26 s).
        const details = webpush.generateRequestDetails(
          { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
          payload && payload.length > 0 ? Buffer.from(payload) : undefined,
          { vapidDetails, TTL: ttlSeconds, topic: pushTopic(room), urgency: 'high', contentEncoding: 'aes128gcm' },
        );
        const status = await postCapped(details, agent, timeout);
        if (status >= 200 && status <= 299) return { outcome: 'sent' };
        if (status === 404 || status === 410) return { outcome: 'gone', detail: `the push service answered ${status}` };
        return { outcome: 'failed', detail: `the push service answered ${status}` };
      } catch (e) {
        const err = e as { code?: string; message?: string };
        if (err.code === 'EPUSHNOTPUBLIC') return { outcome: 'gone', detail: err.message ?? 'not public' };
        return { outcome: 'failed', detail: err.message ?? String(e) };
      }
    },
    close: () => agent.destroy(),
  };
}
