/**
 * Removes the password (and user) from URLs in a text: `https://user:secret@host` → `https://***@host`. A registry
 * URL may carry credentials for a proxy in front of it; they must never reach a message, a log or a file avp writes.
 */
export function redactUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, '$1***@');
}
