/**
 * A session id as one safe path segment of the session state folder: no disk, no node: built-ins, so the hook
 * shortcut finds a session's folder by the same rule as the session store.
 */
/** Session ids come from the host; keep them safe as one path segment. */
export function safeSegment(id: string): string {
  const s = id.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return s.slice(0, 128) || '_';
}
