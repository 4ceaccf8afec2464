/** Splitting a time window into whole rollup units (read from a rollup) and the partial edges (read raw). */

export interface Split {
  /** Whole units inside the window, [from, to), or undefined when there is none. */
  whole: readonly [from: number, to: number] | undefined;
  /** The parts of the window outside whole units, to be read from the events themselves. */
  edges: (readonly [from: number, to: number])[];
}

export const splitWindow = (from: number, to: number, unit: number): Split => {
  const first = Math.ceil(from / unit) * unit;
  const last = Math.floor(to / unit) * unit;
  if (first >= last) return { whole: undefined, edges: from < to ? [[from, to]] : [] };
  const edges: (readonly [number, number])[] = [];
  if (from < first) edges.push([from, first]);
  if (last < to) edges.push([last, to]);
  return { whole: [first, last], edges };
};
