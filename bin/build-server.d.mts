/** The compiled server's path (dist-server/pacto-server.mjs). */
export const SERVER_BUNDLE: string;
/** Compiles src/server into one ES module at `outfile`; resolves with its path. */
export function buildServer(outfile?: string): Promise<string>;
