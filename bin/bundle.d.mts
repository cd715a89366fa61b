// Types of bin/bundle.mjs for the TypeScript that imports it (tests, benchmarks).
export type Main = typeof import('../src/cli/main').main;

export declare const ROOT: string;
export declare const ENTRY: string;
export declare const DEFAULT_BUNDLE: string;

export interface BundleStatus {
  readonly state: 'fresh' | 'stale' | 'missing';
  readonly reason?: string;
}
export declare function bundleStatus(file?: string, root?: string): BundleStatus;

export declare function buildBundle(options?: { root?: string; outfile?: string; write?: boolean }): Promise<{ code: string }>;

export interface LoadedCli {
  readonly main: Main;
  readonly via: 'bundle' | 'built' | 'tsx';
  readonly reason?: string;
}
export declare function loadCli(options?: { bundle?: string }): Promise<LoadedCli>;
