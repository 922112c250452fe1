import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { ContentBlock, TerminalLookup, ToolCall } from '../../model';
import { Ansi } from '../text/Ansi';
import { SafeMarkdown } from '../text/SafeMarkdown';
import { decodeBase64Text, imageDataUri, safeHref } from '../text/safeUrl';
import { exitedWithoutCompletion, hasEnded } from '../../model/status';
import { CopyButton } from './CopyButton';
import { SpawnedSessions } from './SpawnedSessions';
import { JsonTree } from './JsonTree';
import { isSmallDiff, LargeDiff } from './LargeDiff';
import { labelIdOf, type LabelId } from '../../model/labels';
import { commandOf, editsOf, fetchOf, firstLineOf, inputOf, outputText, planEntriesOf, searchOf } from '../../model/inputs';
import { contentText, exitCodeOf, nonTextBlocks, terminalsOf } from './extract';
import styles from './calls.module.css';

const DiffViewer = lazy(() => import('./DiffView'));

export interface ViewProps {
  call: ToolCall;
  terminals: TerminalLookup;
  dark: boolean;
}

/** How each known label's calls are drawn; every other label gets the generic view. */
const VIEW_BY_LABEL: Partial<Record<LabelId, (props: ViewProps) => ReactNode>> = {
  Edit: EditView,
  Write: EditView,
  'Run Command': CommandView,
  Read: ReadView,
  Search: SearchView,
  'List Files': SearchView,
  'Web Fetch': FetchView,
  Plan: PlanView,
};

/**
 * Labels an agent may give a shell command by what it does: codex-acp sends `cat notes.txt` as a
 * read and `ls -la`, `grep` as searches. Such a call is drawn as the command it ran (its output,
 * its exit code), not as a file's lines or a list of matches.
 */
const SHELL_READS: ReadonlySet<LabelId> = new Set<LabelId>(['Read', 'Search', 'List Files']);

/** Whether the call's input is a command it ran (a `command` string or argument list). */
function ranCommand(call: ToolCall): boolean {
  const command = (inputOf(call) as { command?: unknown }).command;
  return typeof command === 'string' || (Array.isArray(command) && command.length > 0);
}

/** The body of an opened call, drawn by its label. */
export function CallBody(props: ViewProps) {
  const { call } = props;
  const id = labelIdOf(call.label);
  const View = (ranCommand(call) && id !== undefined && SHELL_READS.has(id) ? CommandView : undefined) ?? (id !== undefined ? VIEW_BY_LABEL[id] : undefined) ?? GenericView;
  const body = <View {...props} />;
  const blocks = nonTextBlocks(call);
  return (
    <div className={styles.body}>
      {id === 'Subagent' ? <SpawnedSessions call={call} /> : null}
      {body}
      {blocks.length > 0 ? <Blocks blocks={blocks} /> : null}
    </div>
  );
}

function EditView(props: ViewProps) {
  const diffs = editsOf(props.call);
  if (diffs.length === 0) return <GenericView {...props} />;
  return (
    <>
      {diffs.map((d, i) => (
        <section key={i} className={styles.section}>
          {d.path ? <div className={styles.path}>{d.path}</div> : null}
          {isSmallDiff(d.oldText, d.newText) ? (
            <Suspense fallback={<pre className={styles.pre}>{d.newText}</pre>}>
              <DiffViewer oldText={d.oldText} newText={d.newText} dark={props.dark} />
            </Suspense>
          ) : (
            <LargeDiff oldText={d.oldText} newText={d.newText} />
          )}
        </section>
      ))}
      <Output call={props.call} />
    </>
  );
}

function CommandView({ call, terminals }: ViewProps) {
  const { command, cwd } = commandOf(call);
  const terms = terminalsOf(call, terminals);
  const exit = exitCodeOf(call, terms);
  const pieces: string[] = [];
  const text = contentText(call);
  if (text) pieces.push(text);
  for (const t of terms) if (t.output) pieces.push(t.output);
  if (pieces.length === 0) {
    const o = outputText(call.rawOutput) ?? outputText(call.ledger?.result);
    if (o) pieces.push(o);
  }
  return (
    <section className={styles.section}>
      <div className={styles.command}>
        <span className={styles.prompt}>$</span> {command ?? '(no command)'}
        {cwd ? <span className={styles.dimText}> · in {cwd}</span> : null}
        {command ? <CopyButton label="Copy" text={() => command} /> : null}
      </div>
      {pieces.length > 0 ? <Ansi text={pieces.join('\n')} /> : <div className={styles.dimText}>No output recorded.</div>}
      <div className={styles.meta}>
        {exit === undefined
          ? 'Exit code not recorded'
          : !hasEnded(call)
            ? exitedWithoutCompletion(exit)
            : exit === null
              ? 'Exited without a code'
              : `Exit code ${exit}`}
        {terms.some((t) => t.truncated) ? ' · output truncated by the agent' : ''}
        {terms.find((t) => t.signal)?.signal ? ` · signal ${terms.find((t) => t.signal)?.signal}` : ''}
      </div>
    </section>
  );
}

function ReadView({ call }: ViewProps) {
  const read = contentText(call) || outputText(call.rawOutput) || outputText(call.ledger?.result) || '';
  // Claude Code numbers the lines it read ("     1→hello"): its numbers are the ones shown.
  const numbered = numberedByAgent(read);
  const text = numbered?.text ?? read;
  const start = numbered?.start ?? firstLineOf(call);
  return (
    <section className={styles.section}>
      {call.subject ? <div className={styles.path}>{call.subject}</div> : null}
      {text ? <NumberedLines text={text} start={start} /> : <div className={styles.dimText}>No file content recorded.</div>}
      {numbered?.after ? <pre className={`${styles.pre} ${styles.dimText}`}>{numbered.after}</pre> : null}
    </section>
  );
}

const MAX_LINES = 5000;
const AGENT_LINE_NUMBER = /^ *(\d{1,9})\u2192/;

/**
 * A file's lines as Claude Code's Read gives them, each after its number and an arrow, and what
 * the agent added after them (a `<system-reminder>`): the lines, the first number, and the rest.
 */
function numberedByAgent(text: string): { text: string; start: number; after: string } | null {
  const lines = text.split('\n');
  const first = AGENT_LINE_NUMBER.exec(lines[0] ?? '');
  if (!first) return null;
  let n = 1;
  while (n < lines.length && AGENT_LINE_NUMBER.test(lines[n] ?? '')) n++;
  return { text: lines.slice(0, n).map((l) => l.replace(AGENT_LINE_NUMBER, '')).join('\n'), start: Number(first[1]), after: lines.slice(n).join('\n').trim() };
}

function NumberedLines({ text, start }: { text: string; start: number }) {
  const lines = text.split('\n');
  const shown = lines.slice(0, MAX_LINES);
  return (
    <pre className={`${styles.pre} ${styles.numbered}`}>
      {shown.map((l, i) => (
        <div key={i} className={styles.line}>
          <span className={styles.lineNo}>{start + i}</span>
          <span>{l}</span>
        </div>
      ))}
      {lines.length > MAX_LINES ? <div className={styles.dimText}>… {lines.length - MAX_LINES} more lines</div> : null}
    </pre>
  );
}

function SearchView({ call }: ViewProps) {
  const { pattern, where } = searchOf(call);
  const text = contentText(call) || outputText(call.rawOutput) || outputText(call.ledger?.result) || '';
  const matches = text ? text.split('\n').filter((l) => l.trim() !== '') : [];
  return (
    <section className={styles.section}>
      <dl className={styles.fields}>
        {pattern !== undefined ? (
          <>
            <dt>Pattern</dt>
            <dd>
              <code>{pattern}</code>
            </dd>
          </>
        ) : null}
        {where !== undefined ? (
          <>
            <dt>In</dt>
            <dd>{where}</dd>
          </>
        ) : null}
        <dt>Matches</dt>
        <dd>{matches.length}</dd>
      </dl>
      {matches.length > 0 ? (
        <ul className={styles.matches}>
          {matches.slice(0, 2000).map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      ) : (
        <div className={styles.dimText}>No matches recorded.</div>
      )}
    </section>
  );
}

function FetchView({ call }: ViewProps) {
  const { url, prompt } = fetchOf(call);
  const href = url ? safeHref(url) : '';
  const text = contentText(call) || outputText(call.rawOutput) || '';
  return (
    <section className={styles.section}>
      <div className={styles.path}>
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow">
            {url}
          </a>
        ) : (
          url
        )}
      </div>
      {prompt ? <div className={styles.dimText}>Prompt: {prompt}</div> : null}
      {text ? <SafeMarkdown text={text} /> : <div className={styles.dimText}>No fetched content recorded.</div>}
    </section>
  );
}

export function Checklist({ entries }: { entries: { content: string; status: string; priority?: string }[] }) {
  return (
    <ul className={styles.checklist}>
      {entries.map((e, i) => (
        <li key={i} data-status={e.status}>
          <span className={styles.check} aria-hidden>
            {e.status === 'completed' ? '☑' : e.status === 'in_progress' ? '◐' : '☐'}
          </span>
          <span className={e.status === 'completed' ? styles.done : undefined}>{e.content}</span>
          {e.status === 'in_progress' ? <span className={styles.dimText}> (in progress)</span> : null}
        </li>
      ))}
    </ul>
  );
}

function PlanView(props: ViewProps) {
  const entries = planEntriesOf(props.call);
  if (!entries) return <GenericView {...props} />;
  return (
    <section className={styles.section}>
      <Checklist entries={entries} />
    </section>
  );
}

function Output({ call }: { call: ToolCall }) {
  const text = contentText(call);
  if (!text) return null;
  return <pre className={styles.pre}>{text}</pre>;
}

function GenericView({ call, terminals }: ViewProps) {
  const text = contentText(call);
  const terms = terminalsOf(call, terminals);
  const input = call.tool?.input ?? call.rawInput ?? call.ledger?.args;
  const output = call.rawOutput ?? call.ledger?.result ?? call.ledger?.error;
  return (
    <section className={styles.section}>
      {input !== undefined ? (
        <div>
          <div className={styles.heading}>Input</div>
          <JsonTree value={input} />
        </div>
      ) : null}
      {text ? (
        <div>
          <div className={styles.heading}>Content</div>
          <pre className={styles.pre}>{text}</pre>
        </div>
      ) : null}
      {terms.map((t) => (
        <Ansi key={t.terminalId} text={t.output} />
      ))}
      {output !== undefined ? (
        <div>
          <div className={styles.heading}>Output</div>
          <JsonTree value={output} />
        </div>
      ) : null}
      {input === undefined && output === undefined && !text && terms.length === 0 ? (
        <div className={styles.dimText}>No input or output recorded.</div>
      ) : null}
    </section>
  );
}

/** Blocks drawn at first, and how many more each Show more draws: 50,000 image chunks make one message. */
const BLOCKS_SHOWN = 50;
const BLOCKS_MORE = 200;

export function Blocks({ blocks }: { blocks: ContentBlock[] }) {
  const [shown, setShown] = useState(BLOCKS_SHOWN);
  const hidden = blocks.length - shown;
  return (
    <section className={styles.section}>
      {blocks.slice(0, shown).map((b, i) => (
        <Block key={i} block={b} />
      ))}
      {hidden > 0 ? (
        <button type="button" onClick={() => setShown((n) => n + BLOCKS_MORE)}>
          Show {Math.min(BLOCKS_MORE, hidden).toLocaleString('en')} more ({hidden.toLocaleString('en')} not shown)
        </button>
      ) : null}
    </section>
  );
}

function Block({ block }: { block: ContentBlock }) {
  const [showSvg, setShowSvg] = useState(false);
  switch (block.type) {
    case 'image': {
      const uri = block.data ? imageDataUri(block.mimeType, block.data) : null;
      if (uri) return <img className={styles.image} src={uri} alt={`${block.mimeType} image`} />;
      if (/svg/i.test(block.mimeType) && block.data) {
        return (
          <div className={styles.blockNote}>
            SVG image (shown as text, never rendered){' '}
            <button type="button" onClick={() => setShowSvg((v) => !v)}>
              {showSvg ? 'hide' : 'show source'}
            </button>
            {showSvg ? <pre className={styles.pre}>{decodeBase64Text(block.data)}</pre> : null}
          </div>
        );
      }
      return (
        <div className={styles.blockNote}>
          Image ({block.mimeType}){block.uri ? `: ${block.uri}` : ''} not displayed
        </div>
      );
    }
    case 'audio':
      return <div className={styles.blockNote}>Audio ({block.mimeType})</div>;
    case 'resource_link':
      return (
        <div className={styles.blockNote}>
          Resource link: {block.title ?? block.name ?? ''} <code>{block.uri}</code>
        </div>
      );
    case 'resource':
      return (
        <div className={styles.blockNote}>
          Resource <code>{block.resource.uri}</code>
          {block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}
          {typeof block.resource.text === 'string' ? <pre className={styles.pre}>{block.resource.text}</pre> : null}
          {block.resource.blob ? <div className={styles.dimText}>{block.resource.blob.length} base64 characters of binary data</div> : null}
        </div>
      );
    case 'text':
      return <pre className={styles.pre}>{block.text}</pre>;
    case 'unknown':
      return <JsonTree value={block.raw} />;
  }
}

