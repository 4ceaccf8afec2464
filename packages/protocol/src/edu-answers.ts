/** What the education layer's calls answer (edu-routes.ts exports their types). */
import { boolean, integer, list, nullable, object, oneOf, text } from './answer-schema.ts';

/** A school member's roles, and a class member's. */
export const SCHOOL_ROLES = ['school_admin', 'teacher'] as const;
export const CLASS_ROLES = ['head_teacher', 'teacher', 'pupil'] as const;
export type SchoolRole = (typeof SCHOOL_ROLES)[number];
export type ClassRole = (typeof CLASS_ROLES)[number];

/**
 * A child's guardian consent: `pending` (under 14, no guardian has decided; no community scope),
 * `granted` (a guardian consented), `school` (a pupil account a school created under its agreement),
 * `withdrawn` (a guardian withdrew it: the account is frozen).
 */
export const CONSENT_STATES = ['pending', 'granted', 'school', 'withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** Pupils one bulk creation (or reset, or card sheet) takes at most. */
export const PUPIL_BATCH_MAX = 100;

const classFields = {
  id: integer(),
  school_id: integer(),
  name: text(),
  grade: integer(),
  school_year: text(),
  archived: boolean(),
};
export const classAnswer = object(classFields);

export const membershipsAnswer = object(
  {
    schools: list(
      object({
        id: integer(),
        name: text(),
        role: oneOf(...SCHOOL_ROLES),
        /** `refused`: the school turned the request down; asking again makes it `pending` again. */
        status: oneOf('pending', 'approved', 'refused'),
      }),
    ),
    classes: list(object({ ...classFields, role: oneOf(...CLASS_ROLES), status: oneOf('active', 'pending') })),
    /** The account was created by a school and has no personal phone yet. */
    managed_by_school: boolean(),
    /** The school asks for a new password before anything else. */
    must_change_password: boolean(),
    /**
     * The grades a class may have on this server, in order: 1–12 (一年级…高三), with 0 (幼儿园) and 13
     * (大学/成人) where the operator allows them (EDU_CLASS_EXTRA_GRADES).
     */
    class_grades: list(integer()),
    /** The account may ask to teach: a person's own account, not a pupil's nor a minor's (by the age it gave). */
    may_teach: boolean(),
    /**
     * The name the school gave an account it made (what the teacher typed, or the roster's): the name a
     * pupil is greeted by while the nickname is the drawn default. Null for any other account.
     */
    pupil_name: nullable(text()),
    /**
     * While the account waits for a guardian's consent (under 14): when it is deleted if none comes
     * (milliseconds since the epoch; EDU_CONSENT_PENDING_DAYS after the wait began). Null otherwise.
     */
    deleted_without_consent_at: nullable(integer()),
  },
  {
    /**
     * The name a teacher gave a school when asking to teach there ("王老师"): the name a teacher is
     * greeted by while the nickname is the drawn default. Absent when none was given.
     */
    teacher_name: text(),
    /**
     * A staff session's idle time-out (STAFF_IDLE_MINUTES; 0 when the server has none): the server ends
     * the session after that many minutes without a call. Only in a staff session's answer (a teacher's
     * or a school admin's); a pupil's or a family's session has no time-out and no field.
     */
    idle_minutes: integer(),
  },
);

/**
 * Who read the caller's record (or, for a guardian, the child's), newest first, the last 100 of each:
 * teachers' and operators' reads, the applications the person granted access to, the copies of the
 * data made (services/account/record-reads.ts). The reads come a page at a time: `next_cursor`, sent
 * as `cursor`, asks for the reads after the page (and only reads: the other lists come whole at first).
 */
export const accessLogAnswer = object(
  {
    reads: list(
      object({
        reader_id: integer(),
        /** The reader's nickname. */
        reader_name: text(),
        /** The reader's relation to the person when the reader is their guardian (`mother`, …), else null. */
        reader_relation: nullable(text()),
        /**
         * A teacher as the person's school knows them: the name they gave the school when asking to
         * teach ("王老师"), else their real name; null for others or when the teacher gave none.
         */
        reader_staff_name: nullable(text()),
        /** The teacher's school (one the person is a pupil of); null for others. */
        reader_school_name: nullable(text()),
        /** `teacher` (a teacher or school admin) or `operator`. */
        reader_role: text(),
        /** name, username, class, membership, managed_by_school, initial_password, new_password; phone, email, nickname, … for operators. */
        fields: list(text()),
        /** class_detail, card_sheet, pupils_created, pupils_reset, school_overview, user_detail, user_export, user_search, teacher_requests, roster_preview. */
        purpose: text(),
        /** What an operator said when reading a minor's record; null otherwise. */
        reason: nullable(text()),
        /** Milliseconds since the epoch. */
        at: integer(),
      }),
    ),
    applications: list(
      object({
        client_id: text(),
        name: text(),
        /** The scopes granted, space-separated. */
        scope: text(),
        /** When granted (milliseconds since the epoch). */
        at: integer(),
      }),
    ),
    exports: list(
      object({
        /** `user`, `guardian` or `operator`. */
        requested_by: text(),
        /** open, done, refused, cancelled. */
        status: text(),
        at: integer(),
      }),
    ),
  },
  {
    /** There while more reads follow: the `cursor` of the next page. */
    next_cursor: integer(),
  },
);

export const classMemberAnswer = object({
  user_id: integer(),
  role: oneOf(...CLASS_ROLES),
  status: oneOf('active', 'pending'),
  /** The pupil's name as the teacher typed it, or the account's nickname. */
  name: text(),
  username: nullable(text()),
  managed_by_school: boolean(),
  /** A pupil's guardian consent (null: an adult, or an age not known). */
  consent: nullable(oneOf(...CONSENT_STATES)),
  /** While consent is pending: when the account is deleted if no guardian consents by then (unix ms). */
  consent_due_at: nullable(integer()),
});

export const classDetailAnswer = object({ class: classAnswer, members: list(classMemberAnswer) });

export const schoolOverviewAnswer = object({
  id: integer(),
  name: text(),
  daily_batches: integer(),
  batches_used_today: integer(),
  teachers: list(
    object({
      user_id: integer(),
      name: text(),
      /** The phone number masked (`138****1234`), so the admin knows whom they approve; '' when none. */
      phone: text(),
      role: oneOf(...SCHOOL_ROLES),
      status: oneOf('pending', 'approved'),
    }),
  ),
  classes: list(classAnswer),
  /** Pupils' printed cards keep working after a pupil chooses a password of their own (default false). */
  cards_keep_working: boolean(),
});

/** A school admin's "guardians to confirm": the school's invites still waiting for their guardian. */
export const guardiansToConfirmAnswer = object({
  guardians: list(
    object({
      id: integer(),
      child_id: integer(),
      child_name: text(),
      /** The child's classes at the school. */
      classes: list(text()),
      relation: text(),
      /** The phone the school recorded, masked (`138****1234`); '' when none was recorded. */
      phone: text(),
      /** Since when the invite waits (ms). */
      since: integer(),
      /** When the school last sent the invitation by SMS (ms); null when it never did. */
      invited_at: nullable(integer()),
    }),
  ),
  /** The `cursor` of the next page; null on the last. */
  next_cursor: nullable(integer()),
});

/** When the invitation was sent again (ms). */
export const inviteResentAnswer = object({ invited_at: integer() });

/** Schools whose name holds the words asked for: their id and name, nothing of who is there. */
export const schoolSearchAnswer = object({ schools: list(object({ id: integer(), name: text() })) });

export const pupilPreviewAnswer = object({
  names: list(text()),
  /** Lines left out, with why (`empty`, `too_long`, `duplicate`, `too_many`). */
  skipped: list(object({ line: integer(), text: text(), reason: text() })),
  /** Blank lines among the names, skipped (the ones after the last name are not listed). */
  blank_lines: list(integer()),
});

/** A pupil's sign-in as printed on the card: shown once here, to the teacher who created or reset it. */
export const pupilCredentialsAnswer = object({
  pupils: list(object({ user_id: integer(), name: text(), username: text(), password: text() })),
});

export const cardSheetAnswer = object({ html: text(), count: integer() });

/**
 * The caller's login cards that still sign in (their QR code), newest first, and what the caller's
 * school does to them when the pupil chooses a password of their own.
 */
export const ownCardsAnswer = object({
  cards: list(
    object({
      /** Names the card for `revokeOwnCard` (never the badge itself). */
      id: text(),
      /** When the school printed it (ms). */
      printed_at: integer(),
      /** The class it was printed for ('' for cards printed before classes were recorded). */
      class_name: text(),
    }),
  ),
  /**
   * false (the default): choosing a password of one's own ends every card; true: the school chose that
   * cards keep working after it.
   */
  cards_keep_working: boolean(),
});

export const joinCodeAnswer = object({ join_code: text() });

export const schoolAnswer = object({
  id: integer(),
  name: text(),
  daily_batches: integer(),
  created_at: integer(),
  /**
   * The school's agreement in force for the pupils its teachers create; null: they wait for a guardian.
   * `applications`: the client ids of the third-party applications it covers.
   */
  agreement: nullable(
    object({ signatory: text(), signed_on: text(), text_version: integer(), applications: list(text()) }),
  ),
});

export const teacherRequestAnswer = object(
  {
    school_id: integer(),
    school_name: text(),
    user_id: integer(),
    name: text(),
    phone: nullable(text()),
    status: oneOf('pending', 'approved'),
    created_at: integer(),
  },
  {
    /** The row's place in the list: the last row's, sent as `before`, asks for the rows after it. */
    cursor: text(),
  },
);
