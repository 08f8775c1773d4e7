// Types of the `codemode` Node package (bindings/node). Written by hand for index.js; the
// native half (codemode.node) is internal.

/** JSON data: what crosses between the program and the host. */
export type DataValue = null | boolean | number | string | DataValue[] | { [key: string]: DataValue };

/** A JSON Schema document (render-and-check only: the library validates inputs and outputs against it). */
export type JsonSchema = { [key: string]: unknown };

/**
 * A host tool: the program calls it as `tools.<path>(input)`. `input` is checked against the
 * `input` schema before `execute` runs; the value `execute` returns (or resolves to) must be JSON
 * data (`InvalidToolOutput` otherwise, saying where) and is checked against `output` when given.
 * Throw {@link ToolError} for a message the program sees; anything else thrown reaches it only as
 * "Tool '<path>' failed." and is passed to {@link Options.onHandlerError}.
 */
export interface ToolDefinition<I = any, O = unknown> {
  description: string;
  input: JsonSchema;
  output?: JsonSchema;
  execute: (input: I) => O | Promise<O>;
}

/** A namespace with a description, made by {@link Namespace}. */
export interface NamespaceDefinition {
  readonly description: string;
  readonly tools: Tools;
}

/**
 * The tools record: nested records are namespaces, dotted keys create nested paths
 * (`{ "issues.list": t }` is `{ issues: { list: t } }`).
 */
export interface Tools {
  [key: string]: ToolDefinition | NamespaceDefinition | Tools;
}

/** Limits of every execution; a missing one keeps the library's default. Each must be a safe integer (`RangeError` otherwise). */
export interface ExecutionLimits {
  /** Wall-clock milliseconds per execution (`TimeoutExceeded`). */
  timeoutMs?: number;
  /** Host calls per execution (`ToolCallLimitExceeded`). */
  maxToolCalls?: number;
  /** Bytes of value and logs kept in the result; output past it is cut (`truncated`), never failing the run. */
  maxOutputBytes?: number;
  /** Bytes the program's interpreter may allocate. */
  maxMemoryBytes?: number;
}

/** How a host call ended, as `after` hooks see it. */
export type CallOutcome =
  | { status: "success"; value: DataValue }
  | { status: "failure"; kind: DiagnosticKind; message: string }
  | { status: "denied"; message: string }
  | { status: "interrupted" };

/**
 * Callbacks around every host call (each optional, sync or async).
 * - `toolBefore(name, input)`: return `undefined` to allow; return a string (or throw a
 *   {@link ToolError}) to deny with that message (the call is listed `denied` and the program gets a
 *   catchable `ToolFailure`); `false` or any other thrown error denies with "The host refused this call.".
 * - `toolAfter(name, input, outcome)`: runs for every call whose `before` ran, also when the run
 *   times out or is aborted; what it returns or throws is ignored.
 * - `extensionBefore(name, args)` / `extensionAfter(name, args, outcome)`: the same for extension functions.
 * - `pauseBefore(name, input)`: `true` pauses the execution at this tool call instead of running it
 *   (see {@link CodeMode.resume}); asked when the call is made, so it must answer at once (a plain
 *   function, not an async one: `TypeError`). One that throws or returns a promise pauses the call
 *   (and is reported to `onHandlerError`). `toolBefore` runs when the call is approved.
 * - The seed's spellings are accepted too: `"tool.before"({ name, input })`,
 *   `"tool.after"({ name, input }, outcome)`, `"extension.before"({ extension, name, args })` and
 *   `"extension.after"({ extension, name, args }, outcome)` (one spelling per hook).
 */
export interface Hooks {
  "tool.before"?: (call: { name: string; input: DataValue }) => void | string | boolean | Promise<void | string | boolean>;
  "tool.after"?: (call: { name: string; input: DataValue }, outcome: CallOutcome) => void | Promise<void>;
  "extension.before"?: (call: { extension: string | undefined; name: string; args: DataValue[] }) => void | string | boolean | Promise<void | string | boolean>;
  "extension.after"?: (call: { extension: string | undefined; name: string; args: DataValue[] }, outcome: CallOutcome) => void | Promise<void>;
  pauseBefore?: (name: string, input: DataValue) => boolean;
  toolBefore?: (name: string, input: DataValue) => void | string | boolean | Promise<void | string | boolean>;
  toolAfter?: (name: string, input: DataValue, outcome: CallOutcome) => void | Promise<void>;
  extensionBefore?: (name: string, args: DataValue[]) => void | string | boolean | Promise<void | string | boolean>;
  extensionAfter?: (name: string, args: DataValue[], outcome: CallOutcome) => void | Promise<void>;
}

/** A host function or a record of them (`fs.read`). */
export type ExtensionGlobal = ((...args: any[]) => unknown) | { [name: string]: ExtensionGlobal };

/** Host functions a program calls directly as globals; not tools (not in the catalog, not counted). */
export interface ExtensionDefinition {
  name: string;
  globals: { [global: string]: ExtensionGlobal };
}

/** The options of {@link CodeMode}. */
export interface Options {
  /** `"lua"`, `"javascript"` or `"js"`; the seed's default is JavaScript. */
  language?: "lua" | "javascript" | "js";
  tools?: Tools;
  limits?: ExecutionLimits;
  hooks?: Hooks;
  extensions?: ExtensionDefinition[];
  /**
   * Tool paths (`["payments.refund"]`) whose calls pause the execution for the host's approval
   * instead of running (see {@link CodeMode.resume}); a path that names no tool is a `TypeError`.
   */
  pauseOn?: string[];
  /** Signs every snapshot (HMAC-SHA256) and refuses ones not signed with it; never inside a snapshot. */
  snapshotKey?: Uint8Array | string;
  /** Gets what a handler or hook threw (other than a {@link ToolError}); default: `console.error`. */
  onHandlerError?: (context: string, error: unknown) => void;
}

/** The diagnostic kinds of the library. */
export type DiagnosticKind =
  | "ParseError"
  | "UnsupportedSyntax"
  | "UnknownTool"
  | "InvalidToolInput"
  | "InvalidToolOutput"
  | "InvalidDataValue"
  | "ToolCallLimitExceeded"
  | "TimeoutExceeded"
  | "ToolFailure"
  | "ExecutionFailure"
  | "Truncated"
  | (string & {});

/** What went wrong, where (1-based line and column) and what to write instead. */
export interface Diagnostic {
  kind: DiagnosticKind;
  message: string;
  location?: { line: number; column: number };
  suggestions?: string[];
}

/** One admitted host call, in admission order. */
export interface ToolCall {
  /** The canonical dotted path, or `"search"`. */
  name: string;
  input: DataValue;
  status: "success" | "failure" | "denied" | "interrupted";
}

/** A tool call a paused execution waits on; `id` is the key of its reply in {@link CodeMode.resume}. */
export interface PendingCall {
  id: number;
  /** The tool's canonical dotted path. */
  name: string;
  /** The input, checked against the tool's schema. */
  input: DataValue;
  location?: { line: number; column: number };
}

/**
 * A paused execution (wire shape plus the snapshot): the calls it waits on (not yet in
 * `toolCalls`), the record and logs so far, and `snapshot` with its `snapshotId` (32 hex
 * digits), both non-enumerable so `JSON.stringify(result)` stays the wire shape.
 */
export interface PausedResult {
  ok: false;
  status: "paused";
  pending: PendingCall[];
  logs?: string[];
  truncated?: boolean;
  toolCalls: ToolCall[];
  /** The execution as bytes: store them anywhere, resume them with {@link CodeMode.resume}. */
  readonly snapshot: Buffer;
  readonly snapshotId: string;
}

/**
 * The host's answer to a pending call: `"run"` (approved: the tool runs now, `toolBefore` first;
 * `{ run: true }` and `{ approve: true }` too), `{ value }` (the call returns it), `{ error }` or
 * `{ deny }` (the call fails with a catchable `ToolFailure`, listed `failure` / `denied`).
 */
export type Reply =
  | "run"
  | { run: true }
  | { approve: true }
  | { value: DataValue }
  | { error: string }
  | { deny: string };

/** Keeps snapshots single-use: `claim(snapshotId)` throws for an id claimed before. */
export interface SnapshotStore {
  claim(snapshotId: string): void;
}

export interface ResumeOptions extends ExecuteOptions {
  /** Claimed before anything runs: a snapshot resumed once through it is refused the second time. */
  store?: SnapshotStore;
}

/** The outcome of one execution: the library's wire shape (optional keys absent when empty). */
export type Result =
  | PausedResult
  | {
      ok: true;
      value: DataValue;
      warnings?: Diagnostic[];
      logs?: string[];
      truncated?: boolean;
      toolCalls: ToolCall[];
    }
  | {
      ok: false;
      status?: undefined;
      error: Diagnostic;
      logs?: string[];
      truncated?: boolean;
      toolCalls: ToolCall[];
    };

/** One catalog or search entry. */
export interface ToolDescription {
  path: string;
  description: string;
  signature: string;
}

/** A page of the built-in `search`. */
export interface SearchPage {
  items: ToolDescription[];
  remaining: number;
  next: { offset: number } | null;
}

export interface ExecuteOptions {
  /**
   * Aborting interrupts the execution: calls in flight end `interrupted`, their `after` hooks
   * run, then the promise rejects with `signal.reason` (an `AbortError` by default), whose
   * `result` property is set to the library's {@link Result} when the reason is an object.
   */
  signal?: AbortSignal;
}

/** A Code Mode runtime. Construction errors: `TypeError` (shapes, paths, schemas, language), `RangeError` (limits). */
export class CodeMode {
  constructor(options?: Options);
  /** `"lua"` or `"javascript"`. */
  readonly language: "lua" | "javascript";
  /** Run `code` off the JS thread; program, tool and limit failures are data in the Result. Many may run at once. */
  execute(code: string, options?: ExecuteOptions): Promise<Result>;
  /**
   * Continue a paused execution exactly where it stopped (this runtime or another with the same
   * tools, this process or another) with one {@link Reply} per pending call id; resolves with its
   * Result, possibly paused again. Time spent paused does not count against `timeoutMs`.
   * Rejects with a {@link SnapshotError} when it cannot be resumed (nothing ran), a `TypeError`
   * for a reply or argument that is not one.
   */
  resume(
    snapshot: Uint8Array | PausedResult,
    replies: { [id: number]: Reply } | Map<number, Reply>,
    options?: ResumeOptions,
  ): Promise<Result>;
  /** Every tool, sorted by path, signatures in the runtime's language (the seed's `runtime.catalog`). */
  readonly catalog: ToolDescription[];
  /** The catalog with signatures in `language` (default: the runtime's). */
  catalogFor(language?: "lua" | "javascript" | "js"): ToolDescription[];
  /** The built-in `search` as a program calls it, without hooks or counting. Throws `TypeError` with the message a program would get. */
  search(query?: string, options?: { namespace?: string; limit?: number; offset?: number }): SearchPage;
  /** The model-facing instructions of the execute tool, with a catalog of about `budget` o200k tokens. */
  instructions(options?: { budget?: number }): string;
}

/** The one channel for a message the program sees (from a handler or a `toolBefore` hook). */
export class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown });
}

/**
 * A snapshot cannot be resumed, and nothing ran: bytes that are no snapshot, cut short or
 * altered; another language; other tools (added, removed, other schemas); a missing or wrong
 * signature; a reply missing or given for another id; resumed already through the store.
 */
export class SnapshotError extends Error {
  constructor(message: string, options?: { cause?: unknown });
}

/** Keeps snapshots single-use in this process (the library's `MemoryStore`). */
export class MemoryStore implements SnapshotStore {
  constructor();
  /** Throws a {@link SnapshotError} ("resumed already") for an id claimed before. */
  claim(snapshotId: string): void;
}

/** A namespace whose description search matches for every tool below it. */
export function Namespace(description: string, tools: Tools): NamespaceDefinition;

/** `tool` itself, typed. */
export function Tool<I = any, O = unknown>(tool: ToolDefinition<I, O>): ToolDefinition<I, O>;

export const Extension: {
  /** `{ name, globals }` as given. */
  make(extension: ExtensionDefinition): ExtensionDefinition;
  /** Mark a plain function that returns a Promise as asynchronous (JS programs get a promise). */
  async<F extends (...args: any[]) => unknown>(fn: F): F;
};

/** The default catalog budget of `instructions()`, in o200k tokens. */
export const DEFAULT_INSTRUCTIONS_BUDGET: number;
/** Deepest nesting a handler's return value may have. */
export const MAX_DATA_DEPTH: number;
