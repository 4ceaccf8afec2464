/**
 * Reading XML from outside (CAS answers, SAML metadata and assertions) with a namespace-aware parser,
 * never with patterns: an element counts only in its namespace and in its place, and text with a
 * comment or an element inside is not text (the comment-in-NameID trick).
 */
import { DOMParser } from '@xmldom/xmldom';

/** Parses XML without network, entities or DTD tricks; undefined when it is not well-formed. */
export const parseXml = (text: string, maxChars: number): Element | undefined => {
  if (text.length > maxChars || /<!DOCTYPE/i.test(text)) return undefined;
  let broken = false;
  const flag = () => {
    broken = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: flag, fatalError: flag } }).parseFromString(
    text,
    'text/xml',
  );
  return broken ? undefined : doc.documentElement;
};

/** Child elements of `parent` in `ns` named `local`. */
export const children = (parent: Element, ns: string, local: string): Element[] => {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.namespaceURI === ns && element.localName === local) found.push(element);
  }
  return found;
};

export const only = (parent: Element, ns: string, local: string) => {
  const found = children(parent, ns, local);
  return found.length === 1 ? found[0] : undefined;
};

export const elementChildren = (parent: Element): Element[] => {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1) found.push(node as Element);
  return found;
};

/** An element's text; undefined when it holds anything but text (a comment, an element). */
export const textOf = (element: Element): string | undefined => {
  let text = '';
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 3 && node.nodeType !== 4) return undefined;
    text += node.nodeValue ?? '';
  }
  return text.trim();
};
