/**
 * The one error class library code throws. `message` says what went wrong, `fix` says what the user can do;
 * `code` is stable for scripts and tests. Commands catch it and print both; nothing below a command prints.
 */
export class AvpError extends Error {
  readonly code: string;
  readonly fix: string | undefined;
  /** Where the problem is, when it is in a file (line and column 1-based). */
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    code: string,
    message: string,
    opts: { fix?: string; file?: string; line?: number; column?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AvpError';
    this.code = code;
    this.fix = opts.fix;
    this.file = opts.file;
    this.line = opts.line;
    this.column = opts.column;
  }

  /** `file:line:col: message — fix`, the form every human-facing error takes. */
  describe(): string {
    const where = this.file
      ? `${this.file}${this.line ? `:${this.line}${this.column ? `:${this.column}` : ''}` : ''}: `
      : '';
    return `${where}${this.message}${this.fix ? `\n  fix: ${this.fix}` : ''}`;
  }
}

export function isAvpError(e: unknown): e is AvpError {
  return e instanceof AvpError;
}

/** A message for any thrown value, without a stack trace. */
export function errorMessage(e: unknown): string {
  if (e instanceof AvpError) return e.describe();
  if (e instanceof Error) return e.message;
  return String(e);
}
