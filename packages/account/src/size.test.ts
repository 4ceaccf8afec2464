/**
 * The size budgets of issue 4, checked on every run: the whole SDK under 8 KB gzip, a password-login-only
 * import under 4 KB. bench/size/account.mjs prints the same figures beside the anchors.
 *
 * Both carry the names of the core client codes (protocol client-codes.ts, 0–75), never those of the
 * education and staff group (school-staff-codes.ts, 76 on): a code added there grows neither, and the
 * last test holds that. Each size is printed with its budget and what is left.
 */
import { fileURLToPath } from 'node:url';
import { SCHOOL_STAFF_CLIENT_CODES } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { sdkSize, shippedBundle } from '../../../scripts/sdk-size.mjs';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const gzipSize = async (contents: string) => (await sdkSize(contents, here)).gzip;
const printed = (what: string, size: number, budget: number) =>
  console.info(`${what}: ${size} B gzip (budget ${budget}, ${budget - size} B left)`);

describe('bundle size (esbuild, minified ESM, gzip -9)', () => {
  it('the whole SDK stays under 8 KB', async () => {
    const size = await gzipSize(`export * from ${JSON.stringify(entry)};`);
    printed('account SDK', size, 8 * 1024);
    expect(size).toBeLessThan(8 * 1024);
  });

  it('a password-login-only import stays under 4 KB', async () => {
    const size = await gzipSize(`import { createAccountClient, loginByPassword } from ${JSON.stringify(entry)};
      loginByPassword(createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' }), { identity: 'a', password: 'b' });`);
    printed('password-only import', size, 4 * 1024);
    expect(size).toBeLessThan(4 * 1024);
  });

  it('a password-login-only import carries no other route, no validation rules and no refresh machinery', async () => {
    const result = await shippedBundle({
      stdin: {
        contents: `import { createAccountClient, loginByPassword } from ${JSON.stringify(entry)};
          loginByPassword(createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' }), { identity: 'a', password: 'b' });`,
        resolveDir: here,
        loader: 'ts',
      },
    });
    const text = result.outputFiles[0]!.text;
    expect(text).toContain('"login"');
    expect(text).not.toContain('register/phone/with-agreement');
    expect(text).not.toContain('it should match the RegExp');
    expect(text).not.toContain('edupass-refresh');
    // Of the specification's messages it throws only its own: no "not initialised", no "NO Token".
    expect(text).not.toContain('Please run init correctly');
    expect(text).not.toContain('NO Token');
  });

  it('carries no name of the education and staff group: a code added there grows no byte of it', async () => {
    const result = await shippedBundle({
      stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: here, loader: 'ts' },
    });
    const text = result.outputFiles[0]!.text;
    expect(text).toContain('"PASSWORD_CHANGE_REQUIRED"'); // the core list's last
    for (const name of SCHOOL_STAFF_CLIENT_CODES) expect(text, name).not.toContain(name);
  });
});
