// Preloaded (`node --import`) into the runner process of the hostile campaign: every call of the
// file-reading functions of node:fs is recorded, one line per call (`operation<TAB>path`), in the
// file named by MTHDS_FS_AUDIT, so that the test can prove that requests read no file.

import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const log = fs.openSync(process.env.MTHDS_FS_AUDIT, 'a');
const writeSync = fs.writeSync;

function describe(target) {
  if (typeof target === 'string') return target;
  if (target instanceof URL) return target.href;
  if (Buffer.isBuffer(target)) return target.toString('utf8');
  if (typeof target === 'number') return `fd:${target}`;
  return String(target);
}

function wrap(owner, name, label) {
  const original = owner[name];
  if (typeof original !== 'function') return;
  const wrapped = function (target, ...rest) {
    try {
      writeSync(log, `${label}\t${describe(target)}\n`);
    } catch {
      // The audit never changes what the runner does.
    }
    return original.call(this, target, ...rest);
  };
  Object.assign(wrapped, original);
  owner[name] = wrapped;
}

const READS = ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream', 'readdir', 'readdirSync', 'opendir', 'opendirSync', 'stat', 'statSync', 'lstat', 'lstatSync', 'realpath', 'realpathSync', 'readlink', 'readlinkSync', 'access', 'accessSync', 'exists', 'existsSync'];
for (const name of READS) wrap(fs, name, name);
for (const name of ['open', 'readFile', 'readdir', 'opendir', 'stat', 'lstat', 'realpath', 'readlink', 'access']) wrap(fs.promises, name, `promises.${name}`);
syncBuiltinESMExports();
