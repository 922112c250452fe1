// Every command reads its options the same way: `--help`/`-h` ask for the help (exit 0), an option
// the command does not know is an error that names it (exit 2), never silently ignored or read as
// a file name.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export type ParsedCommandArgs<T extends Options> =
  | { help: true }
  | { error: string }
  | { help: false; values: ReturnType<typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>>['values']; positionals: string[] };

export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T): ParsedCommandArgs<T> {
  // Asked for anywhere before `--`, the help wins over whatever else is wrong with the line.
  const dashes = argv.indexOf('--');
  if ((dashes === -1 ? argv : argv.slice(0, dashes)).some((arg) => arg === '--help' || arg === '-h')) return { help: true };
  try {
    const { values, positionals } = parseArgs({ args: negativeValuesJoined(argv, options), options, allowPositionals: true, strict: true });
    return { help: false, values, positionals };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = err instanceof Error ? err.message : String(err);
    const option = /'([^']+)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return { error: `unknown option ${option ?? message}` };
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return { error: `${cleanOption(option) ?? 'an option'} ${/does not take/.test(message) ? 'takes no value' : 'needs a value'}` };
    return { error: message };
  }
}

/**
 * `--jobs -1`: node's parser reads `-1` as an option and says --jobs "needs a value", which is not
 * what is wrong. A negative number after an option that takes a value is that option's value
 * (`--jobs=-1`), so the command says what is wrong with it.
 */
function negativeValuesJoined(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  const dashes = argv.indexOf('--');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const takesValue = (dashes === -1 || i < dashes) && arg.startsWith('--') && !arg.includes('=') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Node names an option with a value as `--port <value>` or `-p, --port <value>`: the flag alone reads better. */
function cleanOption(option: string | undefined): string | undefined {
  return option?.split(/[ ,]+/).find((part) => part.startsWith('--')) ?? option;
}

/** What a command says when its line is wrong or the help is asked for. */
export interface CommandText {
  command: string;
  usage: string;
  help: string;
}

type ParsedValues<T extends Options> = Extract<ParsedCommandArgs<T>, { help: false }>;

/**
 * A command's options read, or the exit status when there is nothing more to do: the help printed
 * (0), or an error naming what is wrong, with the usage (2).
 */
export function readCommandArgs<T extends Options>(
  argv: readonly string[],
  io: { out: (text: string) => void; err: (text: string) => void },
  text: CommandText,
  options: T,
): ParsedValues<T> | number {
  const parsed = parseCommandArgs(argv, options);
  if ('error' in parsed) {
    io.err(`loupe ${text.command}: ${parsed.error}\n${text.usage}`);
    return 2;
  }
  if (parsed.help) {
    io.out(text.help);
    return 0;
  }
  return parsed;
}
