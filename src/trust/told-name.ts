/**
 * The name of the file that says which acceptances a session was told of (`<trust dir>/sessions/<name>`): no disk,
 * no node: built-ins, so the hook shortcut finds it by the same rule as the acceptance news (trust/announce.ts).
 */
export function toldFileName(sessionId: string | undefined): string {
  return `${Bun.SHA256.hash(sessionId ?? '', 'hex').slice(0, 24)}.json`;
}
