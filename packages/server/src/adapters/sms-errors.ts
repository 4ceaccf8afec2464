/**
 * SMS and voice providers' refusals as clear messages. The provider's own code travels along, so
 * support can look it up; the wording says whose move it is (the user's number, a limit, the operator).
 */
import { DeliveryError } from './delivery-error.ts';

type Kind = 'number' | 'limit' | 'credit' | 'settings' | 'other';

const KINDS: [RegExp, Kind][] = [
  [
    /MOBILE_NUMBER_ILLEGAL|MOBILE_COUNT_OVER_LIMIT|IncorrectPhoneNumber|PhoneNumberInBlacklist|BLACK_KEY|InvalidCalledNumber|CalledNumber/i,
    'number',
  ],
  [/AMOUNT_NOT_ENOUGH|InsufficientBalance|OUT_OF_SERVICE|Arrearage/i, 'credit'],
  [/LIMIT_CONTROL|LimitExceeded|Throttling|RequestLimitExceeded|FrequencyLimit/i, 'limit'],
  [
    /Signature|AccessKey|SecretId|AuthFailure|Forbidden|TEMPLATE|SIGN_NAME|SmsSdkAppId|VoiceSdkAppid|Unauthorized|TemplateIncorrect|SignatureIncorrect/i,
    'settings',
  ],
];

const WORDS: Record<Kind, string> = {
  number: 'the provider refused this phone number. Check the number',
  limit: 'the provider’s sending limit for this number was reached. Try again later',
  credit: 'the SMS account has run out of credit. Please tell the site’s operator',
  settings: 'the provider refused the server’s SMS settings. Please tell the site’s operator',
  other: 'the provider refused the message. Try again later',
};

export const providerRefusal = (what: 'SMS' | 'voice call', provider: string, code: string, message: string) => {
  const kind = KINDS.find(([pattern]) => pattern.test(code))?.[1] ?? 'other';
  return new DeliveryError(
    `The ${what} could not be sent: ${WORDS[kind]} (${provider} ${code}).`,
    `${provider} ${what} refused: ${code} ${message}`,
  );
};

export const providerUnreachable = (what: 'SMS' | 'voice call', provider: string, detail: string, cause: unknown) =>
  new DeliveryError(`The ${what} could not be sent: ${provider} did not answer. Try again later.`, detail, { cause });
