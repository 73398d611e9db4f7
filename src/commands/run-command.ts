import { errorMessage, isAvpError } from '../errors.ts';
import { redactUserinfo } from '../redact.ts';

/**
 * Wraps a command's body: an AvpError becomes `avp: <file:line: message> / fix: …` on stderr and exit 1 (or the
 * given code; a usage error, code `usage`, exits 2 like every other misuse of the command line); anything else is
 * reported the same way, without a stack trace unless AVP_DEBUG is set.
 */
export async function runCommand(body: () => Promise<number | void>, failureCode = 1): Promise<void> {
  try {
    const code = await body();
    if (typeof code === 'number') process.exitCode = code;
  } catch (e) {
    const text = isAvpError(e) ? e.describe() : errorMessage(e);
    // A password in a registry URL must not be printed, whichever library put the URL in the message.
    process.stderr.write(`avp: ${redactUserinfo(text)}\n`);
    if (process.env.AVP_DEBUG && e instanceof Error && e.stack) process.stderr.write(`${redactUserinfo(e.stack)}\n`);
    process.exitCode = isAvpError(e) && e.code === 'usage' ? 2 : failureCode;
  }
}
