/** A short device description from a User-Agent header: browser and system, or the raw text. */
const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/([\d.]+)/, 'WeChat'],
  [/Edg\/(\d+)/, 'Edge'],
  [/(?:HeadlessChrome|Chrome)\/(\d+)/, 'Chrome'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
  [/node/i, 'Node'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

export const deviceOf = (userAgent: string): string => {
  if (!userAgent) return '—';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent));
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return userAgent.slice(0, 60);
  const version = browser[0].exec(userAgent)?.[1];
  return [version && browser[1] !== 'Node' ? `${browser[1]} ${version.split('.')[0]}` : browser[1], system]
    .filter(Boolean)
    .join(' · ');
};
