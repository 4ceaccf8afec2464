/**
 * The disclosure table has no gap: every claim of every scope is in a group (a claim added to a scope
 * and to no group would be kept back from everyone who needs a consent, silently), every consent
 * state has its row, and phone and e-mail never leave before a guardian's consent.
 */
import { CONSENT_STATES, everyClaim } from '@edupass/protocol';
import { expect, it } from 'vitest';
import { DISCLOSURE, releasedClaims, ungroupedClaims } from './disclosure.ts';

it('places every claim of every scope in a group', () => {
  expect(everyClaim().length).toBeGreaterThan(10);
  expect(ungroupedClaims()).toEqual([]);
});

it('has a row for every consent state and for none needed', () => {
  expect(Object.keys(DISCLOSURE).sort()).toEqual([...CONSENT_STATES, 'none'].sort());
});

it('releases contact details only with a consent or none needed, and the protective claims to anyone asking', () => {
  for (const state of [...CONSENT_STATES, 'none'] as const) {
    for (const party of ['first', 'named', 'third'] as const) {
      const released = releasedClaims(state, party);
      const consented = state === 'granted' || state === 'none';
      expect(released.has('phone_number'), `${state} ${party}`).toBe(consented);
      expect(released.has('email'), `${state} ${party}`).toBe(consented);
      if (party === 'third') expect(released.has('name'), `${state} ${party}`).toBe(consented);
      // Only a school's agreement opens a third party it names, and only for a pupil under it.
      if (party === 'named' && state !== 'school') {
        expect([...released].sort()).toEqual([...releasedClaims(state, 'third')].sort());
      }
      if (state !== 'withdrawn') expect(released.has('age_band'), `${state} ${party}`).toBe(true);
    }
  }
});
