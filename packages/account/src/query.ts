/** `?a=1&b=x` from the truthy params only (spec §7), or '' when none is. */
export const buildQuery = (params: Record<string, unknown> = {}): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.append(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
