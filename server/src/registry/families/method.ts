// Registry entries: the method family (the method as written).

import { CLIENT_AUTHOR, family, id, ids, int, MULTIPLICITY_LABELS, oneOf, optional, OTHERS_METHOD, OWNER_OF_METHOD, P, step, text } from './define.js';

/** An entry of this family: { status: 422, retry: false, domain: 'method' } unless it says otherwise. */
const method = family({ status: 422, retry: false, domain: 'method' });

export const METHOD = [
  method({
    code: 'method.invalid',
    title: 'Invalid method',
    detail: 'The method is invalid; each fault is listed in errors.',
    client: [
      step('change_method', 'Fix each fault listed in errors, each at its location, then validate again.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'Umbrella refusal carrying one item per fault in errors, each with its own code and location. It is used only when at least one item is a fault of the method itself.',
  }),
  method({
    code: 'method.syntax',
    title: 'Syntax error',
    params: [text('finding', 'The parser message.')],
    detail: 'The file is not valid TOML or MTHDS syntax: {finding}',
    client: [step('change_method', 'Fix the syntax at the reported file, line and column.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A .mthds file is not valid TOML, or a reference in it does not parse (for example an unclosed table header or a concept reference like Text[). The location gives file, line and column.',
  }),
  method({
    code: 'method.schema_violation',
    title: 'Schema violation',
    params: [P.fieldPath, P.finding],
    detail: 'The declaration at {field_path} breaks the language schema: {finding}',
    client: [step('change_method', 'Correct the declaration: a missing or unknown key, a wrong value type or value.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A declaration fails the language schema or a pipe-type rule that no sharper code names: an unknown or missing key, a wrong value type, an enum value out of range, two exclusive keys together. It is also the code for method faults no other code describes.',
  }),
  method({
    code: 'method.not_found',
    title: 'Method not found',
    status: 404,
    domain: 'input',
    params: [id('method_ref', 'The method address, name or path as given.')],
    detail: 'No method matches {method_ref}.',
    client: [step('change_input', 'Check the method address, name or path; it must name an existing method.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'The method address, name or path names no method. Typos, a method not yet published, or a path relative to the wrong directory are usual causes.',
  }),
  method({
    code: 'method.ambiguous',
    title: 'Ambiguous method reference',
    domain: 'input',
    params: [id('method_ref', 'The method address, name or directory as given.'), P.candidates],
    detail: 'The reference {method_ref} matches several methods: {candidates}.',
    client: [step('change_input', 'Name the method by its full address, one of the candidates.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'The address, name or directory matches several packages or installed methods, so the runner cannot choose one. A full address removes the ambiguity.',
  }),
  method({
    code: 'method.fetch_failed',
    title: 'Method fetch failed',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [id('method_ref', 'Address of the method or dependency being fetched.')],
    detail: 'The host serving {method_ref} did not answer or failed.',
    client: [step('retry', 'Repeat the request later; the host may be temporarily unavailable.')],
    others: [step('contact_owner', 'If it persists, the owner of the hosting service can check its availability.')],
    explanation:
      'The host serving the method or one of its dependencies did not answer or answered with a failure. It is usually transient.',
  }),
  method({
    code: 'method.package_invalid',
    title: 'Invalid package',
    params: [
      {
        ...id('reason', 'Short identifier of the broken rule, e.g. symlink, too_many_files, no_manifest.'),
        known: {
          symlink: 'A symbolic link in the package (or a method file linked in a checked folder): links are never followed, so a package cannot reach outside its folder.',
          not_regular_file: 'A FIFO, a socket or a device where a method file or manifest is expected: never read (a FIFO would block, a device never ends).',
          file_unreadable: 'A file of the tree could not be read (permission, a file gone meanwhile).',
          folder_unreadable: 'A folder of the tree could not be listed: what it holds is unknown, so the tree is never called clean.',
          file_too_large: 'A file is larger than the bound (16 MB for method files on disk; max_file_bytes for a request), counted by the bytes read.',
          too_many_files: 'The package holds more files than the bound; the walk stopped there.',
          clashing_names: 'Two file names differ only by letter case or Unicode form (one file on many file systems).',
          no_source: 'The method holds no bundle (.mthds).',
          not_a_tree: 'A request\'s files map names a path both as a file and as a folder of other files.',
          lock_invalid: 'methods.lock does not have the form of a lock file, or disagrees with the manifest.',
          manifest_unknown_key: 'METHODS.toml has a key the manifest does not define.',
          manifest_missing_field: 'METHODS.toml lacks a required key.',
          manifest_invalid_field: 'A key of METHODS.toml has a value of the wrong type or form (a dependency alias, a version constraint).',
          name_mismatch: 'The package folder must be named like package.name, a dash and an underscore taken alike (a stored package is named by its version folder instead); the fix renames package.name after the folder.',
          main_pipe_not_exported: 'package.main_pipe names a pipe that [exports] does not list.',
          export_invalid: 'An [exports] entry is not a domain code, or lists a pipe code that is not snake_case.',
          exported_pipe_missing: '[exports] lists a pipe that the package does not declare.',
          empty_path: 'A request\'s files map has an empty path.',
          backslash: 'A path of a request\'s files map uses a backslash (paths use /).',
          scheme: 'A path of a request\'s files map starts with a URI scheme.',
          absolute: 'A path of a request\'s files map is absolute.',
          leaves_tree: 'A path of a request\'s files map leaves the tree (..).',
          not_normalized: 'A path of a request\'s files map has an empty or . segment.',
          unloadable_name: 'A path of a request\'s files map has control characters or is too long to be a file name.',
        },
      },
      optional(id('path', 'Path, in the package, of the offending file.')),
      optional(int('limit', 'The bound that was passed, for size or file-count rules.')),
    ],
    detail: 'The package breaks a rule ({reason})[ at {path}][; the limit is {limit}].',
    client: [step('change_method', 'Fix the package layout, manifest or lock file at the reported place.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The package layout, manifest, lock, files or size break a rule: a symbolic link, too many files or bytes, no manifest or source, clashing or unloadable file names, a files map that is not a tree. Its limit gives the bound when one was passed.',
  }),
  method({
    code: 'method.dependency_missing',
    title: 'Dependency missing',
    params: [
      oneOf(
        'kind',
        { package: 'package', function: 'function', requirement: 'Python requirement' },
        'What is missing: a package, a PipeFunc function, or a Python requirement.',
      ),
      id('name', 'Name or address of the dependency.'),
      oneOf(
        'reason',
        {
          not_found: 'it was not found',
          no_matching_version: 'no version satisfies the constraints',
          cycle: 'the dependencies form a cycle',
        },
        'Why it cannot be satisfied.',
      ),
    ],
    detail: 'Dependency {name} ({kind}) cannot be satisfied: {reason}.',
    client: [
      step('change_method', 'Declare the dependency in the manifest, relax its version constraint, or break the cycle.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      "A dependency is unavailable, no version satisfies the constraints, dependencies form a cycle, or a Python requirement of the tree's requirements.txt cannot be satisfied. A PipeFunc function missing from the runtime registry is also this code, with kind function.",
  }),
  method({
    code: 'method.dependency_invalid',
    title: 'Invalid dependency package',
    params: [id('package', 'Address of the dependency package.'), P.finding],
    detail: 'A file of the dependency package {package} is not UTF-8 or does not parse: {finding}',
    client: [step('change_method', 'Pin another version of the dependency, or remove it.')],
    others: [step('contact_owner', 'The owner of the dependency package fixes the file.')],
    explanation:
      'A file of a dependency package is not UTF-8 or does not parse. The fault is in the dependency, not in the calling method.',
  }),
  method({
    code: 'method.resource_missing',
    title: 'File reference not resolved',
    params: [
      id('file', 'The file reference as written.'),
      oneOf(
        'reason',
        {
          not_in_tree: 'no such file in the tree',
          leaves_tree: 'it leaves the tree',
          absolute: 'it is an absolute path',
          backslash: 'it uses backslashes',
          scheme: 'it carries a URL scheme',
        },
        'Why the reference resolves to no file.',
      ),
    ],
    detail: 'The file reference {file} resolves to no file of the tree: {reason}.',
    client: [
      step('change_method', 'Use a relative path with forward slashes naming a file sent with the method.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A file reference resolves to no file of the tree; references are relative paths with forward slashes, looked up in the set of paths without opening any file. A bundle sent as a bare string with no files tree has no files to refer to.',
  }),
  method({
    code: 'method.concept_unresolved',
    title: 'Concept not found',
    params: [id('concept', 'The concept reference as written.'), ids('suggestions', 'Concepts with a close name, likeliest first.')],
    detail: 'The concept {concept} is not defined.[ Did you mean: {suggestions}?]',
    client: [step('change_method', 'Correct the reference, declare the concept, or add the dependency that defines it.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A concept reference resolves to no concept of the bundle, its domain, its dependencies or the native set. A typo or a missing domain prefix is the usual cause.',
  }),
  method({
    code: 'method.pipe_unresolved',
    title: 'Pipe reference not resolved',
    params: [
      id('pipe', 'The pipe (or manifest main_pipe entry) holding the reference.'),
      id('missing', 'The pipe reference that resolves to nothing.'),
      ids('candidates', 'Existing pipes with a close name.'),
    ],
    detail: 'The pipe {missing} named by {pipe} does not exist.[ Did you mean: {candidates}?]',
    client: [step('change_method', 'Correct the reference or declare the missing pipe.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A controller step, branch, outcome or the manifest's main_pipe names a pipe that does not exist. Typos and pipes renamed in one place only are the usual causes.",
  }),
  method({
    code: 'method.pipe_not_exported',
    title: 'Pipe not exported',
    params: [id('pipe', 'The referenced pipe of the dependency.'), id('package', 'The dependency package.')],
    detail: 'The pipe {pipe} of package {package} is not exported, so it cannot be called from outside the package.',
    client: [step('change_method', 'Call an exported pipe of the dependency instead.')],
    others: [step('contact_owner', 'The owner of the dependency can add the pipe to its exports.')],
    explanation:
      "A dependency's pipe is called but not listed in its [exports]. Only exported pipes (and a bundle's main_pipe) are callable across packages.",
  }),
  method({
    code: 'method.ref_ambiguous',
    title: 'Ambiguous reference',
    params: [id('ref', 'The bare reference as written.'), P.candidates],
    detail: 'The reference {ref} resolves in several packages: {candidates}. Qualify it as alias->domain.Name or domain.Name.',
    client: [step('change_method', 'Qualify the reference with its domain, or alias->domain.Name for a dependency.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A bare pipe or concept reference resolves in several packages, so its meaning depends on resolution order. Qualifying it makes it unambiguous.',
  }),
  method({
    code: 'method.name_conflict',
    title: 'Name conflict',
    params: [
      id('name', 'The conflicting name.'),
      oneOf(
        'conflict',
        {
          duplicate_declaration: 'it is declared twice',
          native_concept: 'it redeclares a native concept',
          batch_item: 'it collides with another batch item name',
          reserved_domain: 'it uses a reserved domain',
        },
        'What the name collides with.',
      ),
    ],
    detail: 'The name {name} conflicts: {conflict}.',
    client: [step('change_method', 'Rename one of the declarations.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'Two declarations share a name, or a name collides with a native concept, another batch item or a reserved domain (native, mthds, pipelex).',
  }),
  method({
    code: 'method.cycle',
    title: 'Cycle',
    params: [
      oneOf(
        'kind',
        { refines: 'refinement', structure: 'structure', pipe: 'pipe call' },
        'What loops: concept refinement, concept structure, or pipe calls.',
      ),
      ids('cycle', 'The concepts or pipes of the loop, in order.'),
    ],
    detail: 'A {kind} cycle runs through, in order: {cycle}.',
    client: [step('change_method', 'Break the loop by removing or redirecting one of its links.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'Concepts refine or contain each other, or pipes call each other, in a loop. Package dependency cycles are method.dependency_missing instead.',
  }),
  method({
    code: 'method.identifier_invalid',
    title: 'Invalid name',
    params: [
      oneOf(
        'identifier_kind',
        { pipe_code: 'pipe code', main_pipe: 'main pipe', input_name: 'input name' },
        'What kind of name is invalid.',
      ),
      text('name', 'The name as written.'),
    ],
    detail: 'The {identifier_kind} {name} is not a valid name; names match \\[a-z\\]\\[a-z0-9_\\]*.',
    client: [step('change_method', 'Rename it in lowercase snake_case, for example extract_invoice.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe code, main pipe or input name does not match [a-z][a-z0-9_]*; stored names (a step's result or batch_as, a PipeBatch's input_item_name) follow the input-name form. A plain batch_over starting with the reserved prefix _bound_ is also this code.",
  }),
  method({
    code: 'method.pipe_type_invalid',
    title: 'Invalid pipe type',
    params: [
      P.pipe,
      oneOf(
        'reason',
        { missing: 'it names no type', unknown: 'the type is unknown', retired: 'the type is retired' },
        'Why the type is invalid.',
      ),
      optional(text('pipe_type', 'The type as written, when one is written.')),
    ],
    detail: 'The pipe {pipe} has an invalid type[ {pipe_type}]: {reason}.',
    client: [
      step('change_method', 'Give the pipe a current type (PipeLLM, PipeSequence, …), or migrate a retired form.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A pipe names no type, an unknown one, or a retired one such as PipeJinja2 or PipeOcr. A pipe without a type is only valid as a signature (description, inputs and output only).',
  }),
  method({
    code: 'method.signature_mismatch',
    title: 'Signature mismatch',
    params: [P.pipe, P.finding],
    detail: 'The pipe {pipe} differs from the signature it implements: {finding}',
    client: [step('change_method', 'Align the inputs and output of the pipe with its signature, or update the signature.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A concrete pipe's inputs or output differ from the signature declared under the same code. Signatures are contracts: implementations must match them.",
  }),
  method({
    code: 'method.not_runnable',
    title: 'Pipe not implemented',
    params: [P.pipe],
    detail: 'The pipe {pipe} is declared as a signature with no implementation, so it cannot run.',
    client: [step('change_method', 'Implement the pipe (give it a type and its settings) before running the method.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A run reached a pipe still declared as a signature. Validation reports such pipes as pending_signatures, not as a fault; only a run refuses them.',
  }),
  method({
    code: 'method.input_undeclared',
    title: 'Undeclared input',
    params: [P.pipe, ids('variables', 'The variables read but not declared.')],
    detail: 'The pipe {pipe} reads variables its inputs do not declare: {variables}.',
    client: [step('change_method', 'Declare the variables in the inputs of the pipe, or fix their names in the template.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A template or step reads a variable the pipe's inputs do not declare. Typos in $variable references are the usual cause.",
  }),
  method({
    code: 'method.input_unused',
    title: 'Unused input',
    params: [P.pipe, ids('variables', 'The declared inputs nothing reads.')],
    detail: 'The pipe {pipe} declares inputs that nothing it runs reads: {variables}.',
    client: [step('change_method', 'Remove the unused inputs (a suggested fix may do it) or use them in a template.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe declares inputs that nothing it runs reads, which usually means a template forgot a variable. The item's suggested_fix may carry the removal.",
  }),
  method({
    code: 'method.input_concept_mismatch',
    title: 'Input concept mismatch',
    params: [
      P.pipe,
      P.input,
      id('declared', 'The concept declared for the input.'),
      ids('expected', 'Concepts its use accepts.'),
    ],
    detail: 'The input {input} of pipe {pipe} is declared as {declared}, but its use accepts {expected}.',
    client: [step('change_method', 'Declare the input with an accepted concept, or change how it is used.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "An input's declared concept is not accepted by its use: a controller's declaration differs from its children's needs, or a pipe type needs another kind of input (for example PipeExtract needs a Document or Image).",
  }),
  method({
    code: 'method.output_concept_mismatch',
    title: 'Output concept mismatch',
    params: [
      P.pipe,
      id('declared', 'The output concept declared.'),
      id('pipe_type', 'The type of the pipe.'),
      ids('expected', 'Concepts the type or wiring accepts.'),
    ],
    detail: 'The output {declared} of pipe {pipe} ({pipe_type}) breaks the rule of its type or wiring; accepted: {expected}.',
    client: [step('change_method', 'Declare an accepted output concept, or change the pipe type or wiring.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "The output concept breaks the rule of the pipe's type or wiring, for example a PipeLLM declaring an image output, or a sequence whose output differs from its last step's.",
  }),
  method({
    code: 'method.output_multiplicity_mismatch',
    title: 'Output multiplicity mismatch',
    params: [
      P.pipe,
      id('declared', 'The output as declared, e.g. Joke or Joke[].'),
      oneOf('expected', MULTIPLICITY_LABELS, 'The multiplicity its use calls for.'),
    ],
    detail: 'The pipe {pipe} declares the output {declared}, but its use calls for {expected}.',
    client: [step('change_method', 'Declare the output as Concept, Concept[] or Concept[N] to match its use.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The declared output multiplicity does not fit its use, for example a sequence declaring one item whose last step is a batch producing a list. It is found before any run; its run-time twin is pipe.output_multiplicity.',
  }),
  method({
    code: 'method.wiring_invalid',
    title: 'Invalid wiring',
    params: [P.pipe, id('variable_path', 'The variable or attribute path read.'), P.finding],
    detail: 'The pipe {pipe} reads {variable_path} in a shape its wiring does not give: {finding}',
    client: [step('change_method', 'Connect the steps so that each reads what an earlier step or input provides.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A pipe reads a variable or attribute in a shape its wiring does not give (for example batching over a value that is not a list), or a controller's steps do not connect.",
  }),
  method({
    code: 'method.field_path_unresolved',
    title: 'Field path not resolved',
    params: [
      P.pipe,
      id('path', 'The field path as written.'),
      id('segment', 'The first segment that does not exist.'),
      ids('available_fields', 'Fields available at that point; empty at a leaf.'),
    ],
    detail: 'In pipe {pipe}, the path {path} has no field {segment}. Available fields: {available_fields}.',
    client: [step('change_method', 'Correct the path to one of the available fields.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A binding's from, a construct's from or a template field read walks past what the concept structures hold. Typos in field names and reading into a leaf value are the usual causes.",
  }),
  method({
    code: 'method.binding_step_invalid',
    title: 'Invalid binding step',
    params: [P.pipe, P.fieldPath],
    detail: 'The binding step at {field_path} in pipe {pipe} is malformed.',
    client: [
      step('change_method', 'Give the binding step a from and a plain result only, with a well-formed dotted path.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A binding step is malformed: it has both pipe and from, lacks result, carries nb_output, multiple_output, batch_over or batch_as, has a non-plain result or a path that breaks the grammar, or sits inside a PipeParallel.',
  }),
  method({
    code: 'method.optional_marker_invalid',
    title: 'Presence marker not allowed',
    params: [P.pipe, P.fieldPath],
    detail: 'The pipe {pipe} uses a presence marker (? or !) where none is allowed, at {field_path}.',
    client: [step('change_method', 'Remove the marker; ? and ! apply only to single inputs, and ! never to an output.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A presence marker is written where it is not allowed, for example ? on a plural reference or ! on an output.',
  }),
  method({
    code: 'method.optional_unhandled',
    title: 'Optional value not handled',
    params: [
      P.pipe,
      id('input', 'The maybe-absent input or stored value.'),
      oneOf(
        'site',
        {
          sequence_step: 'a sequence step whose boundary is not optional',
          condition: 'a condition whose boundary is not optional',
          condition_output: 'a condition that can continue without producing its required output',
          template: 'a template read without a guard',
          parallel_branch: 'a parallel branch feeding a required field',
        },
        'Where the maybe-absent value arrives.',
      ),
    ],
    detail: 'In pipe {pipe}, the maybe-absent value {input} reaches {site}.',
    client: [
      step('change_method', 'Mark the receiving side optional with ?, guard the read, or make the value always present.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'A maybe-absent value reaches a place needing a value: a step, sequence or condition whose boundary is not optional, a condition that can continue without a non-optional output, an unguarded template read, or a parallel branch feeding a required field.',
  }),
  method({
    code: 'method.template_invalid',
    title: 'Invalid template',
    params: [P.pipe, id('template', 'Which template: the key holding it, e.g. prompt or expression.'), P.finding],
    detail: 'The template {template} of pipe {pipe} is invalid: {finding}',
    client: [step('change_method', 'Fix the template at the reported place.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A prompt, expression or construct template does not parse, cannot be read, or misuses an input or filter, for example an unclosed {{ or a filter unavailable in that kind of template. The location gives the place.',
  }),
  method({
    code: 'method.template_private_name',
    title: 'Private name in template',
    params: [P.pipe, ids('variables', 'The reserved names read.')],
    detail: 'A template of pipe {pipe} reads names reserved to the runtime: {variables}.',
    client: [step('change_method', 'Read declared inputs and their public fields only.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A template reads a name reserved to the runtime, for example an attribute starting with an underscore. Such names are internal and may change.',
  }),
  method({
    code: 'method.function_invalid',
    title: 'Invalid function',
    params: [P.pipe, id('function', 'The function name or import path.'), P.finding],
    detail: 'The function {function} of pipe {pipe} cannot be used: {finding}',
    client: [
      step('change_method', 'Fix the function: importable from the tree root, with a declared return type, under a unique name.'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      "A PipeFunc's function cannot be imported under its import path from the tree root, lacks or breaks its return type, or shares a name with another function.",
  }),
  method({
    code: 'method.concept_invalid',
    title: 'Invalid concept',
    params: [P.concept, P.finding],
    detail: 'The structure of concept {concept} is invalid: {finding}',
    client: [step('change_method', 'Fix the concept structure at the reported field.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      "A concept's structure cannot be generated, found, completed or described as a JSON Schema: for example refines together with structure, a field without description, or a default value that breaks its own type.",
  }),
  method({
    code: 'method.model_setting_invalid',
    title: 'Invalid model setting',
    params: [id('field', 'Path of the model setting, e.g. pipe.summarize.model.'), P.finding],
    detail: 'The model setting at {field} is invalid: {finding}',
    client: [step('change_method', 'Correct the model reference or remove the conflicting setting.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A model reference does not parse, or settings of a step conflict, for example a temperature out of range or reasoning_effort together with reasoning_budget.',
  }),
  method({
    code: 'method.mock_unsatisfiable',
    title: 'Mock unsatisfiable',
    params: [P.concept],
    detail: 'The dry run cannot build a value of concept {concept} that satisfies all its constraints.',
    client: [step('change_method', 'Make the constraints of the concept compatible (choices, defaults, required fields).'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The dry run needs a mock of an output concept and no value satisfies its constraints together, for example a default outside its own choices or a required field that contains itself.',
  }),
  method({
    code: 'method.changed_concurrently',
    title: 'File changed concurrently',
    status: 409,
    retry: true,
    domain: 'runtime',
    detail: 'A file the fix read was changed by someone else before the fix wrote it; nothing was overwritten.',
    client: [
      step('refresh', 'Reload the file to see the other change.'),
      step('retry', 'Apply the fix again on the fresh content.'),
    ],
    others: [step('wait', 'Nothing to do: the other change was kept intact.')],
    explanation:
      'A file a fix read was changed by someone else before the fix wrote it, so the fix stopped without overwriting. Applying it again on the new content can succeed.',
  }),
] as const;
