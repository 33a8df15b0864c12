// Working memory (language reference §7.1): stuffs by name, aliases, and the names recorded as
// absent (an optional value that is not there, a condition that continued). A stuff is a concept
// with its content: one item, or the items of a list.

import type { ConceptInfo } from '../../language/jsonSchema.js';

export interface Stuff {
  concept: ConceptInfo;
  /** One item's content, or the array of items when `list`. */
  content: unknown;
  list: boolean;
}

/** The stuff as it travels: `{concept, content}`, a list as `{ items: [...] }` (Pipelex's list content). */
export interface WireStuff {
  concept: string;
  content: unknown;
}

export interface WireMemory {
  root: Record<string, WireStuff>;
  aliases: Record<string, string>;
}

export const MAIN_STUFF = 'main_stuff';

export class WorkingMemory {
  readonly root = new Map<string, Stuff>();
  readonly aliases = new Map<string, string>();
  readonly absent = new Set<string>();

  get(name: string): Stuff | undefined {
    const direct = this.root.get(name);
    if (direct) return direct;
    const target = this.aliases.get(name);
    return target !== undefined ? this.root.get(target) : undefined;
  }

  isAbsent(name: string): boolean {
    return this.absent.has(this.aliases.get(name) ?? name) && !this.get(name);
  }

  set(name: string, stuff: Stuff): void {
    this.root.set(name, stuff);
    this.absent.delete(name);
  }

  markAbsent(name: string): void {
    this.root.delete(name);
    this.absent.add(name);
  }

  /** The output of a step: stored under its name (when given) and designated as the main stuff. */
  setMain(name: string | undefined, stuff: Stuff): void {
    if (name === undefined || name === MAIN_STUFF) {
      this.aliases.delete(MAIN_STUFF);
      this.set(MAIN_STUFF, stuff);
      return;
    }
    this.set(name, stuff);
    this.root.delete(MAIN_STUFF);
    this.aliases.set(MAIN_STUFF, name);
  }

  /** A deep copy: branches of a parallel or a batch must not see each other's writes. */
  clone(): WorkingMemory {
    const copy = new WorkingMemory();
    for (const [name, stuff] of this.root) copy.root.set(name, { ...stuff, content: structuredClone(stuff.content) });
    for (const [alias, target] of this.aliases) copy.aliases.set(alias, target);
    for (const name of this.absent) copy.absent.add(name);
    return copy;
  }

  toWire(): WireMemory {
    const root: Record<string, WireStuff> = {};
    for (const [name, stuff] of this.root) root[name] = wireStuff(stuff);
    return { root, aliases: Object.fromEntries(this.aliases) };
  }
}

export function wireStuff(stuff: Stuff): WireStuff {
  return { concept: stuff.concept.ref, content: stuff.list ? { items: stuff.content } : stuff.content };
}

export function itemsOf(stuff: Stuff): unknown[] {
  return stuff.list ? (stuff.content as unknown[]) : [stuff.content];
}
