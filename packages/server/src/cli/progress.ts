/** A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise). */
export const progress = (label: string, total: number) => {
  const tty = process.stderr.isTTY === true;
  let lastTenth = -1;
  const draw = (done: number) => {
    const ratio = total === 0 ? 1 : done / total;
    const width = 30;
    const bar = '█'.repeat(Math.round(ratio * width)).padEnd(width, '░');
    const line = `${label} ${bar} ${done}/${total} (${Math.floor(ratio * 100)}%)`;
    if (tty) process.stderr.write(`\r${line}`);
    else if (Math.floor(ratio * 10) !== lastTenth) {
      lastTenth = Math.floor(ratio * 10);
      process.stderr.write(`${line}\n`);
    }
  };
  return {
    update: draw,
    finish() {
      draw(total);
      if (tty) process.stderr.write('\n');
    },
  };
};
