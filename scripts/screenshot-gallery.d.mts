export const SCREENSHOTS_TAKEN: boolean;
export const GALLERY: string;
export function describeShot(file: string): { screen: string; variant: string };
export function writeGallery(sources?: { title: string; dir: string }[], out?: string): { count: number; out: string };
