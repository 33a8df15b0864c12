import { parse } from 'smol-toml';
const cases = process.argv.slice(2);
for (const c of cases) {
  const t = JSON.parse('"' + c + '"');
  try { const r = parse(t, { integersAsBigInt: 'asNeeded' }); console.log(JSON.stringify(t), 'OK', String(Object.values(r)[0]), typeof Object.values(r)[0]); }
  catch (e) { console.log(JSON.stringify(t), 'ERR', e.message.split('\n')[0], e.line, e.column); }
}
