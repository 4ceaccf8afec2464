/** Parsers for what the server answers: `unknown` in, checked shapes out, nothing trusted. */
import {
  type CaptchaRuleResponse,
  type CaptchaTicketResponse,
  type GeetestParams,
  isRecord,
  type SlideChallenge,
} from '@edupass/protocol';

export type Json = Record<string, unknown>;

/** The platform's own answers wrap the payload in `data`; EduPass answers it bare. Accept both. */
export const payload = (body: unknown): Json | undefined => {
  if (!isRecord(body)) return undefined;
  return isRecord(body.data) ? body.data : body;
};

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export const parseRule = (body: unknown): CaptchaRuleResponse | undefined => {
  const data = payload(body);
  const rule = text(data?.rule);
  if (data === undefined || rule === undefined) return undefined;
  return { rule: rule.toUpperCase(), appid: text(data.appid) ?? '', ticket: text(data.ticket) ?? '' };
};

export const parseTicket = (body: unknown): CaptchaTicketResponse | undefined => {
  const data = payload(body);
  const ticket = text(data?.ticket);
  if (data === undefined || ticket === undefined || ticket === '') return undefined;
  const appid = text(data.appid);
  return appid === undefined ? { ticket } : { ticket, appid };
};

export const parseGeetestParams = (body: unknown): GeetestParams | undefined => {
  const data = payload(body);
  const gt = text(data?.gt);
  const challenge = text(data?.challenge);
  if (data === undefined || gt === undefined || challenge === undefined) return undefined;
  const success = data.success === 1 || data.success === '1' || data.success === true ? 1 : 0;
  return { gt, challenge, success, new_captcha: data.new_captcha !== false };
};

export const parseSlideChallenge = (body: unknown): SlideChallenge | undefined => {
  const data = payload(body);
  if (data === undefined) return undefined;
  const id = text(data.id);
  const background = text(data.background);
  const piece = text(data.piece);
  const width = finite(data.width);
  const height = finite(data.height);
  const pieceY = finite(data.pieceY);
  const pieceWidth = finite(data.pieceWidth);
  const pieceHeight = finite(data.pieceHeight);
  const expiresIn = finite(data.expiresIn);
  if (
    id === undefined ||
    background === undefined ||
    piece === undefined ||
    width === undefined ||
    height === undefined ||
    pieceY === undefined ||
    pieceWidth === undefined ||
    pieceHeight === undefined
  ) {
    return undefined;
  }
  return { id, background, piece, width, height, pieceY, pieceWidth, pieceHeight, expiresIn: expiresIn ?? 0 };
};
