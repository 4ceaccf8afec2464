/** What a test reads off a server's HTML page the way a browser would: entities, hidden form fields. */

export const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The page's hidden inputs, name to value (a missing value is empty), as a form posts them. */
export const hiddenFields = (html: string): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of html.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?/g)) {
    fields[unescapeHtml(name)] = unescapeHtml(value);
  }
  return fields;
};
