/**
 * Opening the file the user chose: refused before any upload when it is not a picture the browser can
 * decode (a text file renamed .png included) or is too large to decode safely on a phone.
 */
import { AVATAR } from '@edupass/protocol';

/** Larger files are refused unread: a phone's photo is a few MB, and decoding a huge one can crash the tab. */
export const MAX_PICTURE_FILE_BYTES = 20 * 1024 * 1024;
/** Pixels beyond which a canvas may fail on phones (a 40-megapixel photo decodes to 160 MB). */
export const MAX_PICTURE_PIXELS = 40_000_000;

export type PictureProblem = 'notPicture' | 'tooLarge';

export class PictureFileError extends Error {
  override readonly name = 'PictureFileError';
  constructor(readonly problem: PictureProblem) {
    super(problem);
  }
}

export interface Picture {
  /** An object URL of the file, for the crop frame. */
  url: string;
  image: HTMLImageElement;
  width: number;
  height: number;
  /** Frees the object URL. */
  release(): void;
}

export const openPicture = async (file: File): Promise<Picture> => {
  if (file.size > MAX_PICTURE_FILE_BYTES) throw new PictureFileError('tooLarge');
  // An empty type (an unknown extension) is judged by decoding alone.
  if (file.type && !(AVATAR.types as readonly string[]).includes(file.type)) throw new PictureFileError('notPicture');
  const url = URL.createObjectURL(file);
  const release = () => URL.revokeObjectURL(url);
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
  } catch {
    release();
    throw new PictureFileError('notPicture');
  }
  const { naturalWidth: width, naturalHeight: height } = image;
  if (width === 0 || height === 0) {
    release();
    throw new PictureFileError('notPicture');
  }
  if (width * height > MAX_PICTURE_PIXELS) {
    release();
    throw new PictureFileError('tooLarge');
  }
  return { url, image, width, height, release };
};
