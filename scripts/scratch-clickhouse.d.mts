export interface ScratchClickHouse {
  /** http://127.0.0.1:<port> of its HTTP interface. */
  url: string;
  dir: string;
  pid(): number | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
  kill(): void;
}
export declare const clickhouseInstalled: () => boolean;
export declare const startScratchClickHouse: (options?: {
  timeoutMs?: number;
  /** A directory to keep (created when missing) instead of a fresh temporary one. */
  dir?: string;
}) => Promise<ScratchClickHouse>;
