/**
 * A shell barrier for script validators, to show they run at the same time without a stopwatch (a loaded machine
 * makes wall-clock bounds flaky). Each copy checks in under `dir` and waits until `n` copies have checked in: together
 * it prints `pass`; if it waits out `waitS` seconds (the copies ran one after another, or fewer than `n` at a time),
 * it prints `alone`.
 */
export function barrierScript(dir: string, n: number, pass: string, alone: string, waitS = 20): string {
  const tries = waitS * 10;
  return [
    'cat >/dev/null',
    `mkdir -p '${dir}' && : > '${dir}/in-'$$`,
    'i=0',
    `while [ "$(ls '${dir}' | wc -l)" -lt ${n} ] && [ $i -lt ${tries} ]; do sleep 0.1; i=$((i+1)); done`,
    `if [ $i -lt ${tries} ]; then echo '${pass}'; else echo '${alone}'; fi`,
  ].join('\n');
}
