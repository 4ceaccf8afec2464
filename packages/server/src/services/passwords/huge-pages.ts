/**
 * Whether the host lets the password hash have huge pages. An argon2id check at the shipped cost
 * fills 19 MiB of fresh memory (argon2.ts); @node-rs/argon2 asks the kernel for it with
 * madvise(MADV_HUGEPAGE), which Linux grants when transparent huge pages are `always` or `madvise`
 * (/sys/kernel/mm/transparent_hugepage/enabled). With `never`, or with huge pages turned off for the
 * process (prctl PR_SET_THP_DISABLE by whatever started it; /proc/self/status `THP_enabled: 0`), the
 * 19 MiB come as 4,864 small pages, each faulted in, and the hash's pseudo-random reads miss the TLB:
 * measured on a 2-core virtual machine, 75 ms of CPU a check instead of 13, which leaves a core about
 * a third of its password sign-ins (docs/deploy.md, "Sizing"). Hosts are set to `never` on purpose
 * (advice once given for databases, Redis among them, which since 6.2 turns them off for itself):
 * the server says so at start, with the fix.
 */
import { readFileSync } from 'node:fs';

export const HUGE_PAGES_SETTING = '/sys/kernel/mm/transparent_hugepage/enabled';
export const PROCESS_STATUS = '/proc/self/status';

/** The file's text, or undefined where there is none (not Linux, a sandbox without /sys). */
const readIfThere = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The bracketed choice of `always [madvise] never`; undefined when there is none. */
export const hugePagesMode = (setting: string | undefined): string | undefined => setting?.match(/\[(\w+)\]/)?.[1];

/**
 * The warning to log at start, or undefined when the hash gets its huge pages (or the host is not
 * Linux). `read` reads a file's text, undefined when it cannot.
 */
export const hugePagesWarning = (read: (path: string) => string | undefined = readIfThere): string | undefined => {
  const mode = hugePagesMode(read(HUGE_PAGES_SETTING));
  const offForProcess = /^THP_enabled:\s*0\s*$/m.test(read(PROCESS_STATUS) ?? '');
  if (mode !== 'never' && !offForProcess) return undefined;
  const where =
    mode === 'never'
      ? `transparent huge pages are off on this host (${HUGE_PAGES_SETTING}: never)`
      : 'transparent huge pages are off for this process (PR_SET_THP_DISABLE, set by whatever started it)';
  const fix =
    mode === 'never'
      ? `set them to madvise: echo madvise > ${HUGE_PAGES_SETTING} (and transparent_hugepage=madvise on the kernel command line to keep it)`
      : 'start the server without PR_SET_THP_DISABLE';
  return (
    'Password checks will cost several times the CPU (measured on a virtual machine: 75 ms a check ' +
    `instead of 13): ${where}, and each argon2id check fills 19 MiB of memory in small pages. ` +
    `To fix, ${fix}. See docs/deploy.md, "Sizing".`
  );
};
