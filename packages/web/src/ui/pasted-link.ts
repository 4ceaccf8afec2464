/**
 * The link's own part of what someone pasted: the whole address after its `#` (a consent link,
 * `/consent#<link>`), or that part alone; the message around a pasted address is left out.
 */
export const linkOfPasted = (pasted: string) => {
  const text = pasted.trim();
  const hash = text.indexOf('#');
  const part = hash >= 0 ? (text.slice(hash + 1).split(/\s/)[0] ?? '') : (text.split(/\s/).pop() ?? '');
  try {
    return decodeURIComponent(part).trim();
  } catch {
    return part.trim();
  }
};
