/** The one HTTP helper of the vendor adapters: a time-out on every call, the body read as text and JSON. */
import { fetchText, type ProviderAnswer } from '../provider-http.ts';

export interface VendorAnswer {
  status: number;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** The vendor could not be asked (network, time-out): distinct from a vendor saying no. */
export class VendorUnreachable extends Error {
  constructor(vendor: string, cause: unknown) {
    super(`${vendor} could not be reached`, { cause });
    this.name = 'VendorUnreachable';
  }
}

export const callVendor = async (
  vendor: string,
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<VendorAnswer> => {
  let answer: ProviderAnswer;
  try {
    answer = await fetchText(url, init, timeoutMs);
  } catch (cause) {
    throw new VendorUnreachable(vendor, cause);
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = undefined;
  }
  return { ...answer, json };
};

export const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

export { isRecord } from '../provider-http.ts';

/** A vendor's verdict on one result. */
export type Verdict = { pass: true } | { pass: false; reason: string };
export const pass: Verdict = { pass: true };
export const refuse = (reason: string): Verdict => ({ pass: false, reason });
