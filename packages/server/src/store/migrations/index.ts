/**
 * Migrations, in order. SQLite and PostgreSQL run the same list; `id` and `ms` hide the two
 * places where their column types differ. Append new migrations at the end; never edit a shipped one.
 */
import type { ColumnDataType, CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import * as accounts from './001-accounts.ts';
import * as usage from './002-usage.ts';
import * as captcha from './003-captcha.ts';
import * as admin from './004-admin.ts';
import * as usageRollups from './005-usage-rollups.ts';
import * as dashboardIndexes from './006-dashboard-indexes.ts';
import * as captchaConsoleSettings from './007-captcha-console-settings.ts';
import * as expiryIndexes from './008-expiry-indexes.ts';
import * as hashedSessionIds from './009-hashed-session-ids.ts';
import * as leases from './010-leases.ts';
import * as bigintIds from './011-bigint-ids.ts';
import * as signingKeys from './012-signing-keys.ts';
import * as applications from './013-applications.ts';
import * as webhooks from './014-webhooks.ts';
import * as secondFactor from './015-second-factor.ts';
import * as applicationSessions from './016-application-sessions.ts';
import * as sessionSecondFactor from './017-session-second-factor.ts';
import * as relyingParties from './018-relying-parties.ts';
import * as schools from './019-schools.ts';
import * as backchannelLogouts from './020-backchannel-logouts.ts';
import * as emailVerified from './021-email-verified.ts';
import * as eduAccessLogJoinCodes from './022-edu-access-log-join-codes.ts';
import * as ageAndGuardianConsent from './023-age-and-guardian-consent.ts';
import * as accountErasure from './024-account-erasure.ts';
import * as schoolConnectors from './025-school-connectors.ts';
import * as agreementTexts from './026-agreement-texts.ts';
import * as phoneVerified from './027-phone-verified.ts';
import * as minorSettings from './028-minor-settings.ts';
import * as staffAccessAndRequests from './029-staff-access-and-requests.ts';
import * as dataExports from './030-data-exports.ts';
import * as samlFederations from './031-saml-federations.ts';
import * as rosterImports from './032-roster-imports.ts';
import * as guardianChecksAndSchoolAgreements from './033-guardian-checks-and-school-agreements.ts';
import * as rotationBySuccessor from './034-rotation-by-successor.ts';
import * as platformLogout from './035-platform-logout.ts';
import * as schoolSignOut from './036-school-sign-out.ts';
import * as guardianRequests from './037-guardian-requests.ts';
import * as cardsEndWithOwnPassword from './038-cards-end-with-own-password.ts';
import * as agreementApplications from './039-agreement-applications.ts';
import * as schoolNameSearch from './040-school-name-search.ts';
import * as consentPendingSince from './041-consent-pending-since.ts';
import * as sweepIndexesAndDailyReads from './042-sweep-indexes-and-daily-reads.ts';
import * as lookupsByIndex from './043-lookups-by-index.ts';
import * as reportCounters from './044-report-counters.ts';
import * as keysetPages from './045-keyset-pages.ts';
import * as operatorList from './046-operator-list.ts';
import * as oneKeyPerSchool from './047-one-key-per-school.ts';
import * as openRequests from './048-open-requests.ts';
import * as addressBooks from './049-address-books.ts';
import * as auditChain from './050-audit-chain.ts';
import * as applicationDisclosure from './051-application-disclosure.ts';
import * as staffIdentity from './052-staff-identity.ts';
import * as teacherNames from './055-teacher-names.ts';
import * as oidcSessionUid from './057-oidc-session-uid.ts';
import * as guardiansToConfirm from './059-guardians-to-confirm.ts';
import * as schoolNumberPairs from './060-school-number-pairs.ts';
import * as sealedRecords from './061-sealed-records.ts';
import * as oidcSessionLookup from './062-oidc-session-lookup.ts';
import * as unloggedCounters from './063-unlogged-counters.ts';
import * as fragmentIndexes from './064-fragment-indexes.ts';
import * as oidcPartialIndexes from './065-oidc-partial-indexes.ts';
import * as fragmentIndexWrites from './066-fragment-index-writes.ts';

export interface MigrationContext {
  dialect: Dialect;
  /** Adds an auto-incrementing 64-bit primary key `id` (on PostgreSQL `bigserial`: a `serial` stops at 2^31 − 1). */
  id<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** Column type for unix-millisecond times. */
  ms: ColumnDataType;
}

type Step = (db: Kysely<unknown>, context: MigrationContext) => Promise<void>;

const steps: [name: string, up: Step][] = [
  ['001-accounts', accounts.up],
  ['002-usage', usage.up],
  ['003-captcha', captcha.up],
  ['004-admin', admin.up],
  ['005-usage-rollups', usageRollups.up],
  ['006-dashboard-indexes', dashboardIndexes.up],
  ['007-captcha-console-settings', captchaConsoleSettings.up],
  ['008-expiry-indexes', expiryIndexes.up],
  ['009-hashed-session-ids', hashedSessionIds.up],
  ['010-leases', leases.up],
  ['011-bigint-ids', bigintIds.up],
  ['012-signing-keys', signingKeys.up],
  ['013-applications', applications.up],
  ['014-webhooks', webhooks.up],
  ['015-second-factor', secondFactor.up],
  ['016-application-sessions', applicationSessions.up],
  ['017-session-second-factor', sessionSecondFactor.up],
  ['018-relying-parties', relyingParties.up],
  ['019-schools', schools.up],
  ['020-backchannel-logouts', backchannelLogouts.up],
  ['021-email-verified', emailVerified.up],
  ['022-edu-access-log-join-codes', eduAccessLogJoinCodes.up],
  ['023-age-and-guardian-consent', ageAndGuardianConsent.up],
  ['024-account-erasure', accountErasure.up],
  ['025-school-connectors', schoolConnectors.up],
  ['026-agreement-texts', agreementTexts.up],
  ['027-phone-verified', phoneVerified.up],
  ['028-minor-settings', minorSettings.up],
  ['029-staff-access-and-requests', staffAccessAndRequests.up],
  ['030-data-exports', dataExports.up],
  ['031-saml-federations', samlFederations.up],
  ['032-roster-imports', rosterImports.up],
  ['033-guardian-checks-and-school-agreements', guardianChecksAndSchoolAgreements.up],
  ['034-rotation-by-successor', rotationBySuccessor.up],
  ['035-platform-logout', platformLogout.up],
  ['036-school-sign-out', schoolSignOut.up],
  ['037-guardian-requests', guardianRequests.up],
  ['038-cards-end-with-own-password', cardsEndWithOwnPassword.up],
  ['039-agreement-applications', agreementApplications.up],
  ['040-school-name-search', schoolNameSearch.up],
  ['041-consent-pending-since', consentPendingSince.up],
  ['042-sweep-indexes-and-daily-reads', sweepIndexesAndDailyReads.up],
  ['043-lookups-by-index', lookupsByIndex.up],
  ['044-report-counters', reportCounters.up],
  ['045-keyset-pages', keysetPages.up],
  ['046-operator-list', operatorList.up],
  ['047-one-key-per-school', oneKeyPerSchool.up],
  ['048-open-requests', openRequests.up],
  ['049-address-books', addressBooks.up],
  ['050-audit-chain', auditChain.up],
  ['051-application-disclosure', applicationDisclosure.up],
  ['052-staff-identity', staffIdentity.up],
  ['055-teacher-names', teacherNames.up],
  ['057-oidc-session-uid', oidcSessionUid.up],
  ['059-guardians-to-confirm', guardiansToConfirm.up],
  ['060-school-number-pairs', schoolNumberPairs.up],
  ['061-sealed-records', sealedRecords.up],
  ['062-oidc-session-lookup', oidcSessionLookup.up],
  ['063-unlogged-counters', unloggedCounters.up],
  ['064-fragment-indexes', fragmentIndexes.up],
  ['065-oidc-partial-indexes', oidcPartialIndexes.up],
  ['066-fragment-index-writes', fragmentIndexWrites.up],
];

export const migrationsFor = (dialect: Dialect): Record<string, Migration> => {
  const context: MigrationContext = {
    dialect,
    id: (table) =>
      dialect === 'postgres'
        ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    ms: 'bigint',
  };
  return Object.fromEntries(steps.map(([name, up]) => [name, { up: (db: Kysely<unknown>) => up(db, context) }]));
};
