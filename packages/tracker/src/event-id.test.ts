import { describe, expect, it } from 'vitest';
import { eventId } from './event-id.ts';

describe('eventId', () => {
  it('has the UUIDv7 layout and starts with the time', () => {
    const id = eventId(Date.UTC(2030, 0, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2030, 0, 1));
  });

  it('stays in creation order within one millisecond and when the clock steps back', () => {
    const start = Date.UTC(2031, 0, 1);
    const ids = [eventId(start), eventId(start), eventId(start), eventId(start - 5000), eventId(start + 1)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('10000 ids in one millisecond are all distinct and ordered', () => {
    const at = Date.UTC(2032, 0, 1);
    const ids = Array.from({ length: 10_000 }, () => eventId(at));
    expect(new Set(ids).size).toBe(10_000);
    expect([...ids].sort()).toEqual(ids);
  });
});
