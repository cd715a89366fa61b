// Where a game looks for its peers. Both lists are settings of the game: by default the signaling
// server is the one on the host that served the app, and no public STUN/TURN server is contacted.
export interface IceServer {
  readonly urls: string | readonly string[];
  readonly username?: string;
  readonly credential?: string;
}

export interface NetSettings {
  readonly signaling: readonly string[];
  readonly iceServers: readonly IceServer[];
  /** Store-and-forward relays (ws[s]://host/relay) this device adds to every game. */
  readonly relays?: readonly string[];
}

export class NetSettingsError extends Error {}

/** The signaling server `npm start` runs next to the app: same host and port, ws or wss to match. */
export function defaultSignaling(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
}

/** The relay `npm start` runs next to the app: same host and port, path /relay. */
export function defaultRelay(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/relay`;
}

export function defaultNetSettings(location?: { readonly protocol: string; readonly host: string }): NetSettings {
  return { signaling: location && location.host !== '' ? [defaultSignaling(location)] : [], iceServers: [] };
}

/** Throws NetSettingsError naming the first bad address. */
export function checkSignalingUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NetSettingsError(`not a signaling address: "${url}"`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new NetSettingsError(`a signaling address must start with ws:// or wss://: "${url}"`);
  }
  if (parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    throw new NetSettingsError(`a signaling address carries no fragment or credentials: "${url}"`);
  }
  return parsed.href;
}

/** A relay's WebSocket address; a bare host ("wss://relay.example/") means its /relay path. */
export function checkRelayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NetSettingsError(`not a relay address: "${url}"`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new NetSettingsError(`a relay address must start with ws:// or wss://: "${url}"`);
  }
  if (parsed.hash !== '' || parsed.username !== '' || parsed.password !== '' || parsed.search !== '') {
    throw new NetSettingsError(`a relay address carries no query, fragment or credentials: "${url}"`);
  }
  if (parsed.pathname === '/') parsed.pathname = '/relay';
  return parsed.href;
}

export function checkIceServer(server: IceServer): IceServer {
  const urls = typeof server.urls === 'string' ? [server.urls] : server.urls;
  if (!Array.isArray(urls) && typeof server.urls !== 'string') throw new NetSettingsError('an ICE server needs at least one address');
  if (urls.length === 0) throw new NetSettingsError('an ICE server needs at least one address');
  for (const u of urls) {
    if (typeof u !== 'string' || !/^(stun|stuns|turn|turns):/.test(u))
      throw new NetSettingsError(`an ICE server address starts with stun: or turn: ("${String(u)}")`);
  }
  if (server.username !== undefined && typeof server.username !== 'string') throw new NetSettingsError('an ICE server user name is text');
  if (server.credential !== undefined && typeof server.credential !== 'string') throw new NetSettingsError('an ICE server credential is text');
  return server;
}

/**
 * ICE servers as a person types them, one per line: `turn:host:3478 user secret` (address, then
 * optionally user name and credential, separated by spaces), or the invite's JSON form
 * `{"urls": ..., "username": ..., "credential": ...}`. Blank lines are skipped. Throws
 * NetSettingsError naming the first bad line.
 */
export function parseIceServerLines(text: string): IceServer[] {
  const servers: IceServer[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    let server: IceServer;
    if (line.startsWith('{')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new NetSettingsError(`an ICE server line is not JSON: "${line}"`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NetSettingsError(`an ICE server line is not an object: "${line}"`);
      server = value as IceServer;
    } else {
      const [urls, username, credential, ...rest] = line.split(/\s+/);
      if (rest.length > 0 || (username !== undefined && credential === undefined))
        throw new NetSettingsError(`an ICE server line is "address [user credential]": "${line}"`);
      server = { urls: urls!, ...(username !== undefined ? { username, credential: credential! } : {}) };
    }
    checkIceServer(server);
    servers.push({
      urls: typeof server.urls === 'string' ? [server.urls] : [...server.urls],
      ...(server.username !== undefined ? { username: server.username } : {}),
      ...(server.credential !== undefined ? { credential: server.credential } : {}),
    });
  }
  return servers;
}

/** Relay addresses, one per line (blank lines skipped), checked and without duplicates. */
export function parseRelayLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .map(checkRelayUrl),
    ),
  ];
}

/**
 * ICE servers back into the lines parseIceServerLines reads: `address [user credential]` when that
 * form says it all (one address, no spaces), else the JSON form.
 */
export function formatIceServerLines(servers: readonly IceServer[]): string {
  return servers
    .map((s) => {
      const urls = typeof s.urls === 'string' ? [s.urls] : s.urls;
      const plain = [urls[0], s.username, s.credential].filter((x) => x !== undefined);
      const simple =
        urls.length === 1 &&
        (s.username === undefined) === (s.credential === undefined) &&
        plain.every((x) => x !== '' && !/\s/.test(x!)) &&
        !urls[0]!.startsWith('{');
      return simple
        ? plain.join(' ')
        : JSON.stringify({
            urls: [...urls],
            ...(s.username !== undefined ? { username: s.username } : {}),
            ...(s.credential !== undefined ? { credential: s.credential } : {}),
          });
    })
    .join('\n');
}
