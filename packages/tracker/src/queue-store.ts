/**
 * Unsent events kept in storage so they survive reloads, crashes and offline periods. Each page load
 * writes its own key; the next page adopts every key the earlier ones left. Bounded by a character
 * budget (oldest dropped first) so the tracker never fills the site's storage.
 */
import type { ReportEvent } from '@edupass/protocol';
import type { EventKind } from './options.ts';
import type { KeyValueStore } from './ports.ts';

/** A queued event, with its consent kind and its size as counted for the limits. */
export interface Entry {
  k: EventKind;
  s: number;
  v: ReportEvent;
}

const isEntry = (x: unknown): x is Entry => {
  const entry = x as Partial<Entry> | null;
  const event = entry?.v as Partial<ReportEvent> | undefined;
  return (
    typeof entry?.s === 'number' &&
    typeof entry.k === 'string' &&
    typeof event?.e === 'string' &&
    typeof event.i === 'string' &&
    typeof event.t === 'number'
  );
};

const parse = (raw: string | null): Entry[] => {
  try {
    const value: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(value) ? value.filter(isEntry) : [];
  } catch {
    return [];
  }
};

export const createQueueStore = (
  store: KeyValueStore | undefined,
  productCode: string,
  pageId: string,
  limit: number,
) => {
  const prefix = `ep:q:${productCode}:`;
  const own = prefix + pageId;
  let written = false;
  return {
    /** Takes the queues earlier pages left behind (and removes them, as this page now owns them). */
    adopt(): Entry[] {
      const found: Entry[] = [];
      try {
        for (const key of store?.keys() ?? []) {
          if (!key.startsWith(prefix) || key === own) continue;
          found.push(...parse(store?.get(key) ?? null));
          store?.remove(key);
        }
      } catch {
        // Storage that fails to list is treated as empty.
      }
      return found.sort((a, b) => (a.v.i < b.v.i ? -1 : 1));
    },
    save(entries: Entry[]) {
      try {
        if (entries.length === 0) {
          if (written) store?.remove(own);
          written = false;
          return;
        }
        // Keep the newest events that fit the budget (sizes are 3× the JSON length; +32 for the wrapper).
        let budget = limit;
        let first = entries.length;
        for (; first > 0; first--) {
          budget -= (entries[first - 1]?.s ?? 0) / 3 + 32;
          if (budget < 0) break;
        }
        store?.set(own, JSON.stringify(entries.slice(first)));
        written = true;
      } catch {
        // Quota exceeded or storage blocked: the events stay in memory only.
      }
    },
  };
};
