/**
 * A readable name for the device and browser a user agent string describes ("Chrome on Windows",
 * "WeChat on iPhone"), for the list of signed-in devices. Only what the string says; the most specific
 * match first (WeChat and Edge also call themselves Chrome and Safari).
 */

export interface DeviceName {
  /** The browser or app, or undefined when the string names none we know. */
  browser: string | undefined;
  /** The system or device, or undefined when unknown. */
  system: string | undefined;
}

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\//, 'WeChat'],
  [/\bQQ\/|MQQBrowser/, 'QQ'],
  [/DingTalk/, 'DingTalk'],
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/UCBrowser\//, 'UC Browser'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/CriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
  [/node|undici|curl|okhttp|python/i, 'App'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'Mac'],
  [/Linux/, 'Linux'],
];

const first = (table: [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1];

export const deviceName = (userAgent: string): DeviceName => ({
  browser: first(BROWSERS, userAgent),
  system: first(SYSTEMS, userAgent),
});
