// Runs @doyensec/electronegativity over src-main and src-preload, and fails on any HIGH or MEDIUM finding.
// The CSP is computed at runtime (src-main/shell/csp.ts), which electronegativity cannot read,
// so the scan also gets an HTML page carrying the exact policy the app:// protocol serves: its
// CSP checks then judge the real policy instead of reporting "no CSP".
// Suppress a finding only with an `eng-disable <CHECK_ID>` comment on the line, saying why.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildContentSecurityPolicy } from '../src-main/shell/csp';

const root = join(import.meta.dirname, '..');
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** Minimal RFC 4180 CSV reader: quoted fields, doubled quotes, commas and newlines inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n') {
      row.push(field.trim());
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field.trim()]);
  return rows;
}

const work = mkdtempSync(join(tmpdir(), 'fieldmap-electronegativity-'));
try {
  const input = join(work, 'scan');
  cpSync(join(root, 'src-main'), join(input, 'src-main'), { recursive: true });
  cpSync(join(root, 'src-preload'), join(input, 'src-preload'), { recursive: true });
  const csp = buildContentSecurityPolicy().replaceAll('"', '&quot;');
  writeFileSync(
    join(input, 'app-protocol-csp.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${csp}"></head><body></body></html>\n`,
  );
  const report = join(work, 'report.csv');
  execFileSync(
    join(root, 'node_modules/.bin/electronegativity'),
    ['-i', input, '-o', report, '-r', '-v', 'false', '-e', electronVersion],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const [header, ...rows] = parseCsv(readFileSync(report, 'utf8')).filter((r) => r.length > 1);
  const col = (name: string) => header?.findIndex((h) => h.toLowerCase() === name) ?? -1;
  const [issue, severity, file, location, description] = [
    'issue',
    'severity',
    'filename',
    'location',
    'description',
  ].map(col);
  const findings = rows.map((r) => ({
    issue: r[issue!] ?? '?',
    severity: (r[severity!] ?? '').toUpperCase(),
    where: `${r[file!] ?? '?'}:${r[location!] ?? '?'}`,
    description: r[description!] ?? '',
  }));
  const failing = findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
  for (const f of findings)
    console.log(`${f.severity.padEnd(13)} ${f.issue} ${f.where} ${f.description}`);
  console.log(`electronegativity: ${findings.length} findings, ${failing.length} high or medium`);
  process.exitCode = failing.length > 0 ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
