/**
 * Reading CAS answers: the specification's samples are read; documents that a forger or a broken
 * server could send are refused rather than read as someone.
 */
import { logoutRequestDocument } from '@edupass/test-kit/cas-server';
import { describe, expect, test } from 'vitest';
import { readLogoutRequest, readServiceResponse } from './cas.ts';

const CAS = 'xmlns:cas="http://www.yale.edu/tp/cas"';
const success = (inner: string) =>
  `<cas:serviceResponse ${CAS}><cas:authenticationSuccess>${inner}</cas:authenticationSuccess></cas:serviceResponse>`;

describe('readServiceResponse', () => {
  test('the specification’s success sample (§2.5.7) with its attributes', () => {
    const answer = readServiceResponse(`<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
    <cas:authenticationSuccess>
      <cas:user>username</cas:user>
      <cas:attributes>
        <cas:firstname>John</cas:firstname>
        <cas:lastname>Doe</cas:lastname>
        <cas:title>Mr.</cas:title>
        <cas:email>jdoe@example.org</cas:email>
        <cas:affiliation>staff</cas:affiliation>
        <cas:affiliation>faculty</cas:affiliation>
      </cas:attributes>
      <cas:proxyGrantingTicket>PGTIOU-84678-8a9d...</cas:proxyGrantingTicket>
    </cas:authenticationSuccess>
  </cas:serviceResponse>`);
    expect(answer).toEqual({
      ok: true,
      user: 'username',
      attributes: {
        firstname: ['John'],
        lastname: ['Doe'],
        title: ['Mr.'],
        email: ['jdoe@example.org'],
        affiliation: ['staff', 'faculty'],
      },
    });
  });

  test('the specification’s failure sample (§2.5.3)', () => {
    const answer = readServiceResponse(`<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
 <cas:authenticationFailure code="INVALID_TICKET">
    Ticket ST-1856339-aA5Yuvrxzpv8Tau1cYQ7 not recognized
  </cas:authenticationFailure>
</cas:serviceResponse>`);
    expect(answer).toEqual({
      ok: false,
      code: 'INVALID_TICKET',
      message: 'Ticket ST-1856339-aA5Yuvrxzpv8Tau1cYQ7 not recognized',
    });
  });

  test.each([
    ['a comment in the user (alice<!---->.evil read as alice)', success('<cas:user>admin<!---->.evil</cas:user>')],
    ['an element in the user', success('<cas:user>admin<cas:x/>2</cas:user>')],
    ['an empty user', success('<cas:user> </cas:user>')],
    ['two users', success('<cas:user>a</cas:user><cas:user>b</cas:user>')],
    ['a user outside the CAS namespace', success('<user>admin</user>')],
    [
      'a success beside a failure',
      `<cas:serviceResponse ${CAS}><cas:authenticationSuccess><cas:user>a</cas:user></cas:authenticationSuccess><cas:authenticationFailure code="INVALID_TICKET"/></cas:serviceResponse>`,
    ],
    [
      'two successes',
      `<cas:serviceResponse ${CAS}>${'<cas:authenticationSuccess><cas:user>a</cas:user></cas:authenticationSuccess>'.repeat(2)}</cas:serviceResponse>`,
    ],
    [
      'a root in another namespace',
      '<cas:serviceResponse xmlns:cas="urn:evil"><cas:authenticationSuccess><cas:user>a</cas:user></cas:authenticationSuccess></cas:serviceResponse>',
    ],
    [
      'an entity expanding to a user',
      `<!DOCTYPE r [<!ENTITY u "admin">]><cas:serviceResponse ${CAS}><cas:authenticationSuccess><cas:user>&u;</cas:user></cas:authenticationSuccess></cas:serviceResponse>`,
    ],
    ['broken XML', `<cas:serviceResponse ${CAS}><cas:authenticationSuccess><cas:user>a</cas:user>`],
    ['a JSON answer', '{"serviceResponse":{"authenticationSuccess":{"user":"a"}}}'],
    ['an HTML login page', '<html><body>Sign in</body></html>'],
  ])('refuses %s', (_name, document) => {
    expect(readServiceResponse(document)).toMatchObject({ ok: false });
  });

  test('attributes outside the CAS namespace or holding markup are left out', () => {
    const answer = readServiceResponse(
      success(
        '<cas:user>a</cas:user><cas:attributes xmlns:x="urn:x"><x:affiliation>faculty</x:affiliation><cas:class>一班<!---->二班</cas:class><cas:affiliation>student</cas:affiliation></cas:attributes>',
      ),
    );
    expect(answer).toEqual({ ok: true, user: 'a', attributes: { affiliation: ['student'] } });
  });
});

describe('readLogoutRequest', () => {
  test('the specification’s LogoutRequest (§2.3.3) names the service ticket', () => {
    expect(readLogoutRequest(logoutRequestDocument('ST-1-abc'))).toBe('ST-1-abc');
  });
  test.each([
    ['no SessionIndex', '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'],
    ['another root', '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'],
    ['not XML', 'ST-1-abc'],
  ])('reads nothing from %s', (_name, document) => {
    expect(readLogoutRequest(document)).toBeUndefined();
  });
});
