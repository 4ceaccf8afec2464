/**
 * What the usage collector answers beside its 204s (usage.ts has the wire formats): the server time,
 * and the image an image beacon expects. Types from these schemas are exported by usage.ts.
 */
import { integer, object, type Schema } from './answer-schema.ts';

/** `GET /report/time`: unix milliseconds. */
export const serverTimeAnswer = object({ now: integer() });

/** `GET /monitor/beacon`: a 1×1 GIF (not JSON: described by its media type). */
export const beaconImageAnswer: Schema<Uint8Array> = {
  description: 'A 1×1 transparent GIF',
  content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
};
