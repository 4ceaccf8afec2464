/** The part of autocannon 9's API the ingestion bench uses (the package ships no types). */
declare module 'autocannon' {
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    requests?: (RawRequest & { setupRequest?: (request: RawRequest) => RawRequest })[];
  }
  interface Result {
    non2xx: number;
    errors: number;
    timeouts: number;
    requests: { average: number; total: number };
  }
  export default function autocannon(options: Options): Promise<Result>;
}
