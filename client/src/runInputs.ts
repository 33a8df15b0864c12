// The inputs the "Run" code lens asks for: the server sends, with the lens, one entry per input of
// the pipe (from its pipe I/O description); each typed answer becomes the `{ concept, content }` of
// that input. Pure: no `vscode` import, so that tests read it.

export interface PromptField {
  name: string;
  concept: string;
  kind: string;
  required: boolean;
  /** The content member the typed value goes into; absent: the answer is the content as JSON. */
  key?: string;
  value?: 'text' | 'number' | 'boolean';
  /** For an answer typed as JSON: a content of the right shape, which the box starts with. */
  sample?: string;
}

export interface RunInput {
  concept: string;
  content: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fields to ask for, when the command's first argument carries them and no inputs yet. */
export function promptOf(args: readonly unknown[]): PromptField[] | undefined {
  const first = args[0];
  if (!isRecord(first) || first['inputs'] !== undefined || !Array.isArray(first['prompt'])) return undefined;
  const fields: PromptField[] = [];
  for (const f of first['prompt']) {
    if (!isRecord(f) || typeof f['name'] !== 'string' || typeof f['concept'] !== 'string' || typeof f['kind'] !== 'string') return undefined;
    const field: PromptField = { name: f['name'], concept: f['concept'], kind: f['kind'], required: f['required'] === true };
    if (typeof f['key'] === 'string') field.key = f['key'];
    if (f['value'] === 'text' || f['value'] === 'number' || f['value'] === 'boolean') field.value = f['value'];
    if (typeof f['sample'] === 'string') field.sample = f['sample'];
    fields.push(field);
  }
  return fields;
}

/** The pipe a lens names (its `pipe` argument), for what the user is told. */
export function promptPipe(args: readonly unknown[]): string | undefined {
  const first = args[0];
  return isRecord(first) && typeof first['pipe'] === 'string' ? first['pipe'] : undefined;
}

/**
 * What Escape at a prompt leaves behind: the quick input closes by itself, so without these a
 * cancelled run would look like a run that never answered. `line`: the runs log's; `notice`: the
 * status bar's, short enough to be read whole there.
 */
export function cancelledRunText(pipe: string | undefined, fields: readonly PromptField[], at: number): { line: string; notice: string } {
  const name = pipe ?? 'the pipe';
  const where = fields[at] ? ` at input ${at + 1} of ${fields.length} (${fields[at].name})` : '';
  return { line: `Run of ${name} cancelled${where}: nothing was sent to the runner.`, notice: `Run of ${name} cancelled: nothing sent` };
}

/** The question of an input box. */
export function promptText(field: PromptField): string {
  const how = field.key === undefined ? 'as JSON' : field.value === 'boolean' ? 'yes or no' : field.value === 'number' ? 'a number' : field.key === 'url' ? 'a URL' : 'text';
  return `${field.name}: ${field.concept} (${field.kind}), ${how}${field.required ? '' : field.kind === 'list' ? '; empty: no items' : '; empty: left out'}`;
}

/** An answer as the input's value: `undefined` input when left out, or the reason it is refused. */
export function inputOf(field: PromptField, typed: string): { ok: true; input?: RunInput } | { ok: false; message: string } {
  if (typed.trim() === '') {
    if (field.required) return { ok: false, message: `${field.name} is required.` };
    // A list is never left out: empty, it is the empty list (which the method accepts).
    return field.kind === 'list' ? { ok: true, input: { concept: field.concept, content: [] } } : { ok: true };
  }
  if (field.key === undefined) {
    try {
      return { ok: true, input: { concept: field.concept, content: JSON.parse(typed) as unknown } };
    } catch {
      return { ok: false, message: 'Not valid JSON.' };
    }
  }
  let value: unknown = typed;
  if (field.value === 'number') {
    value = Number(typed.trim());
    if (!Number.isFinite(value)) return { ok: false, message: 'Not a number.' };
  } else if (field.value === 'boolean') {
    const t = typed.trim().toLowerCase();
    if (!['yes', 'no', 'true', 'false'].includes(t)) return { ok: false, message: 'Answer yes or no.' };
    value = t === 'yes' || t === 'true';
  }
  return { ok: true, input: { concept: field.concept, content: { [field.key]: value } } };
}
