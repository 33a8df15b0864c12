// method.package_invalid, reason name_mismatch: the rule in words (the folder named like
// package.name, `-` and `_` alike), the folder named, and the rename of package.name offered (not
// applied by --fix: the name is the package's identity for its dependents).

import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../server/src/check/applyFixes.js';
import { check } from '../../helpers/tree.js';

const manifest = (name: string): string => `[package]\nname = "${name}"\naddress = "github.com/acme/x"\nversion = "1.0.0"\ndescription = "d"\n`;
const BUNDLE = 'domain = "x"\ndescription = "d"\n';

describe('name_mismatch', () => {
  it('says the rule, names the folder, and offers the rename of package.name as a suggestion', () => {
    const text = manifest('legal_tools');
    const [f, ...rest] = check({ 'METHODS.toml': text, 'a.mthds': BUNDLE }).filter((x) => x.params['reason'] === 'name_mismatch');
    expect(rest).toEqual([]);
    expect(f!.message).toBe('The package breaks a rule (name_mismatch) at package.name. (the package folder must be named like package.name, `-` and `_` alike: the folder is `tree`, package.name is `legal_tools`)');
    expect(f!.fix).toMatchObject({ title: 'Rename package.name to `tree`', safe: false });
    expect(applyEdits(text, f!.fix!.edits)).toBe(manifest('tree'));
  });

  it('takes `-` and `_` alike', () => {
    expect(check({ 'METHODS.toml': manifest('tree'), 'a.mthds': BUNDLE }).filter((x) => x.params['reason'] === 'name_mismatch')).toEqual([]);
  });
});
