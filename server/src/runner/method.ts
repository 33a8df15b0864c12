// The method a request carries: bundle texts (mthds_contents, named by mthds_sources) or a package
// tree (files), built into a method tree on a virtual root; and the selection of the pipe to run.

import path from 'node:path';
import { buildBundle } from '../language/buildBundle.js';
import { buildManifest } from '../language/manifest.js';
import type { Bundle, PipeDecl } from '../language/model.js';
import { parsePipeRef } from '../language/references.js';
import { pipeRefOf } from '../language/pipeIo.js';
import { createTree, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import { suggest } from '../util/suggest.js';
import { Refusal } from './refusal.js';
import type { Finding } from '../check/finding.js';
import { resolveDependencies } from '../workspace/dependencies.js';
import type { HostStructures } from '../language/hostStructures.js';
import { loadTree, planPackage, relativeTo } from '../workspace/load.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

/** Where request files live; never a real folder (nothing is read from or written to disk). */
export const VIRTUAL_ROOT = '/mthds-request';
/** How answers name the runner's package store: never by its path on the runner's disk. */
const RUNNER_STORE = 'of the runner';

export type MethodSource =
  | { kind: 'contents'; contents: readonly string[]; sources?: readonly string[] }
  | { kind: 'files'; files: Readonly<Record<string, string>> }
  /** An installed method (`method_ref`), found in the package store at `dir`. */
  | { kind: 'installed'; ref: string; dir: string; address: string; version: string }
  /** A method to download (`method_ref` URL); see runner/methodRef.ts. */
  | { kind: 'remote'; ref: string; url: URL };

/** What can be built without the network. */
export type LoadableSource = Exclude<MethodSource, { kind: 'remote' }>;

export interface LoadOptions {
  /** The package store dependencies are read from (none: dependencies stay unloaded). */
  packagesDir?: string;
  /** Library folders of the runner's configuration, searched for packages named by address. */
  libraries?: readonly string[];
  /** Structures the host binds to description-only concepts (the runner's configuration). */
  structures?: HostStructures;
}

export interface LoadedMethod {
  tree: MethodTree;
  /** Absolute (virtual) path of each file -> the name the caller knows it by. */
  names: ReadonlyMap<string, string>;
  /** Absolute path -> the caller's mthds_sources entry, when the caller named the content. */
  sources: ReadonlyMap<string, string>;
  /** Texts of a files request's other files (neither bundles nor the manifest), by path from the root. */
  otherFiles?: ReadonlyMap<string, string>;
  /** Faults met while loading: dependency packages, and the files of an installed method. */
  findings: Finding[];
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Builds the method tree of a request and loads its dependencies from the package store (never
 * from a path the request names: `path` dependencies are refused). Never throws: faults are findings.
 */
export function loadMethod(source: LoadableSource, options: LoadOptions = {}): LoadedMethod {
  const method = buildMethod(source, options);
  if (options.structures) method.tree.hostStructures = options.structures;
  if (options.packagesDir !== undefined && source.kind !== 'installed') method.findings.push(...resolveDependencies(method.tree, dependencyOptions(options.packagesDir, options)));
  return method;
}

/** What the runner's configuration gives the loading of every method. */
export function loadOptionsOf(config: { packagesDir: string; libraries: readonly string[]; structures?: HostStructures }): LoadOptions {
  const options: LoadOptions = { packagesDir: config.packagesDir, libraries: config.libraries };
  if (config.structures) options.structures = config.structures;
  return options;
}

/** A runner reads no local path a request names: only its store and its configured libraries. */
function dependencyOptions(packagesDir: string, options: LoadOptions): Parameters<typeof resolveDependencies>[1] {
  return { fs: nodeFileSystem, packagesDir, localPaths: false, storeLabel: RUNNER_STORE, ...(options.libraries ? { libraries: options.libraries } : {}) };
}

function buildMethod(source: LoadableSource, options: LoadOptions): LoadedMethod {
  const names = new Map<string, string>();
  const sources = new Map<string, string>();
  if (source.kind === 'contents') {
    const bundles: Bundle[] = [];
    const files = new Set<string>();
    source.contents.forEach((text, i) => {
      const given = source.sources?.[i];
      // One folder per item keeps paths distinct even when two sources share a name.
      const base = given ? path.posix.basename(given.replace(/\\/g, '/')) || `bundle_${i + 1}.mthds` : `bundle_${i + 1}.mthds`;
      const rel = `${i}/${base}`;
      const file = `${VIRTUAL_ROOT}/${rel}`;
      names.set(file, given ?? `mthds_contents[${i}]`);
      if (given !== undefined) sources.set(file, given);
      files.add(rel);
      bundles.push(buildBundle(file, parseToml(stripBom(text))));
    });
    return { tree: createTree(VIRTUAL_ROOT, bundles, undefined, files), names, sources, findings: [] };
  }
  if (source.kind === 'installed') {
    // The runner's own package store: read from disk like the command line reads a package.
    const { tree, findings } = loadTree(nodeFileSystem, planPackage(nodeFileSystem, source.dir));
    if (options.packagesDir !== undefined) findings.push(...resolveDependencies(tree, dependencyOptions(options.packagesDir, options)));
    tree.installed = { address: source.address, version: source.version };
    for (const file of [...tree.bundles.map((b) => b.file), ...(tree.manifest ? [tree.manifest.file] : [])]) {
      const rel = relativeTo(source.dir, file);
      names.set(file, rel);
      sources.set(file, rel);
    }
    return { tree, names, sources, findings };
  }
  // The checker compares the package name with its folder's name: the virtual folder takes it.
  const manifestText = source.files['METHODS.toml'];
  const manifestDoc = manifestText !== undefined ? parseToml(stripBom(manifestText)) : undefined;
  const manifestName = manifestDoc ? buildManifest(`${VIRTUAL_ROOT}/METHODS.toml`, manifestDoc).name?.value : undefined;
  const root = `${VIRTUAL_ROOT}/${manifestName && /^[A-Za-z0-9_-]+$/.test(manifestName) ? manifestName : 'package'}`;
  const bundles: Bundle[] = [];
  const otherFiles = new Map<string, string>();
  let manifest;
  for (const [rel, text] of Object.entries(source.files)) {
    const file = `${root}/${rel}`;
    names.set(file, rel);
    sources.set(file, rel);
    if (rel === 'METHODS.toml' && manifestDoc) manifest = buildManifest(file, manifestDoc);
    else if (rel.endsWith('.mthds')) bundles.push(buildBundle(file, parseToml(stripBom(text))));
    else if (rel !== 'METHODS.toml') otherFiles.set(rel, text);
  }
  bundles.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { tree: createTree(root, bundles, manifest, new Set(Object.keys(source.files))), names, sources, otherFiles, findings: [] };
}

/** A file of the method by its path from the tree root (the readers of tree files use it). */
export function methodFileText(method: LoadedMethod, rel: string): { file: string; text: string } | undefined {
  const text = method.otherFiles?.get(rel);
  return text === undefined ? undefined : { file: `${method.tree.root}/${rel}`, text };
}

/** The namespaced ref a pipe is keyed by (one definition: language/pipeIo.ts). */
export const qualifiedPipeRef: (pipe: PipeDecl) => string = pipeRefOf;

function allPipes(tree: MethodTree): PipeDecl[] {
  // A loop, not flatMap (V8's flatMap is a slow builtin; /validate selects a pipe on every request).
  const pipes: PipeDecl[] = [];
  for (const b of tree.bundles) for (const p of b.pipes) pipes.push(p);
  return pipes;
}

/** Among same-code declarations of one domain, the implementation (a signature only when alone). */
function concreteFirst(decls: readonly PipeDecl[]): PipeDecl {
  return decls.find((d) => !d.typeless) ?? decls[0]!;
}

/**
 * The pipe a run starts from: `pipe_code` when given (bare, or `domain.code`), else the main pipe of
 * the manifest, else that of the first bundle (protocol rule 2). Refusals: request.pipe_not_found,
 * request.pipe_ambiguous, request.pipe_unspecified.
 */
export function selectPipe(tree: MethodTree, pipeCode: string | undefined): PipeDecl {
  const found = selection(tree, pipeCode);
  if ('refuse' in found) throw found.refuse();
  return found.pipe;
}

/** The pipe selectPipe would start from, or undefined where it refuses (no refusal is built: /validate asks on every request). */
export function selectedPipe(tree: MethodTree, pipeCode: string | undefined): PipeDecl | undefined {
  const found = selection(tree, pipeCode);
  return 'pipe' in found ? found.pipe : undefined;
}

type Selection = { pipe: PipeDecl } | { refuse: () => Refusal };

function selection(tree: MethodTree, pipeCode: string | undefined): Selection {
  if (pipeCode !== undefined) {
    const pipes = allPipes(tree);
    const parsed = parsePipeRef(pipeCode);
    // The candidates are gathered only for the refusal that names them.
    const notFound = { refuse: (): Refusal => new Refusal('request.pipe_not_found', { pipe: pipeCode, suggestions: suggest(pipeCode, pipes.map(qualifiedPipeRef)) }) };
    if (!parsed.ok || parsed.value.prefix !== undefined) return notFound;
    const { domain, code } = parsed.value;
    const matches = pipes.filter((p) => p.code === code && (domain === undefined || p.bundle.domain?.value === domain));
    if (matches.length === 0) return notFound;
    const domains = [...new Set(matches.map((p) => p.bundle.domain?.value ?? ''))];
    if (domains.length > 1) {
      return { refuse: () => new Refusal('request.pipe_ambiguous', { pipe: pipeCode, candidates: domains.map((d) => (d === '' ? code : `${d}.${code}`)).sort() }) };
    }
    return { pipe: concreteFirst(matches) };
  }
  const manifestMain = tree.manifest?.mainPipe?.value;
  if (manifestMain) {
    const found = resolveMain(tree, manifestMain);
    if (found) return { pipe: found };
  }
  const first = tree.bundles[0];
  const main = first?.mainPipe?.value;
  if (first && main) {
    const local = first.pipes.filter((p) => p.code === main);
    if (local.length > 0) return { pipe: concreteFirst(local) };
  }
  // Without a manifest, a main pipe declared by exactly one bundle still selects unambiguously.
  const declared = tree.bundles.filter((b) => b.mainPipe?.value && b.pipes.some((p) => p.code === b.mainPipe?.value));
  if (!tree.manifest && declared.length === 1) {
    const b = declared[0]!;
    return { pipe: concreteFirst(b.pipes.filter((p) => p.code === b.mainPipe!.value)) };
  }
  return {
    refuse: () => {
      const mains = declared.map((b) => `${b.domain?.value ?? ''}.${b.mainPipe!.value}`);
      const candidates = mains.length > 0 ? mains : allPipes(tree).filter((p) => !p.typeless).map(qualifiedPipeRef);
      return new Refusal('request.pipe_unspecified', { candidates: [...new Set(candidates)].sort().slice(0, 50) });
    },
  };
}

function resolveMain(tree: MethodTree, ref: string): PipeDecl | undefined {
  const parsed = parsePipeRef(ref);
  if (!parsed.ok) return undefined;
  const matches = allPipes(tree).filter((p) => p.code === parsed.value.code && (parsed.value.domain === undefined || p.bundle.domain?.value === parsed.value.domain));
  return matches.length > 0 ? concreteFirst(matches) : undefined;
}
