// Builds real .xlsx files for tests (SpreadsheetML parts zipped with fflate), with the things
// Excel writes that an import must handle: shared and inline strings, formulas with and without
// a saved result, merged cells, number formats (dates, "00000" zips), several sheets.
import { strToU8, zipSync, type Zippable } from 'fflate';
import { columnLetters } from '../../src-main/core/xlsx/sheet-cells';

/** A cell: text (a shared string), a number, or the cell's parts as Excel writes them. */
export type XlsxCell =
  | string
  | number
  | null
  | {
      /** The saved value (<v>); absent for a formula never calculated. */
      v?: string | number;
      /** Cell type: s (shared string index), str (formula text), inlineStr, b, e, n. */
      t?: 's' | 'str' | 'inlineStr' | 'b' | 'e' | 'n';
      /** A formula (without the "="). */
      f?: string;
      /** Index into the style list (XlsxSpec.styles). */
      s?: number;
      /** Text of an inline string. */
      text?: string;
    };

export interface XlsxSheet {
  name: string;
  rows: XlsxCell[][];
  /** Ranges such as "A1:C1". */
  merges?: string[];
  /** Rows written with an explicit r="" and this offset (a sheet that starts lower). */
  firstRow?: number;
  state?: 'hidden';
}

export interface XlsxSpec {
  sheets: XlsxSheet[];
  /** Custom number formats (id >= 164) and the cell styles: each style is a numFmtId. */
  numFmts?: Array<{ id: number; code: string }>;
  styles?: number[];
  date1904?: boolean;
  /** Extra zip entries (e.g. a bomb) or replaced parts. */
  extra?: Zippable;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a workbook, before zipping. */
export function xlsxParts(spec: XlsxSpec): Zippable {
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const sst = (text: string) => {
    let i = sharedIndex.get(text);
    if (i === undefined) {
      i = shared.length;
      shared.push(text);
      sharedIndex.set(text, i);
    }
    return i;
  };
  const cellXml = (cell: XlsxCell, ref: string): string => {
    if (cell === null) return '';
    if (typeof cell === 'string') return `<c r="${ref}" t="s"><v>${sst(cell)}</v></c>`;
    if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
    const attrs = `${cell.t ? ` t="${cell.t}"` : ''}${cell.s !== undefined ? ` s="${cell.s}"` : ''}`;
    const f = cell.f !== undefined ? `<f>${esc(cell.f)}</f>` : '';
    const value =
      cell.t === 'inlineStr'
        ? `<is><t>${esc(cell.text ?? '')}</t></is>`
        : cell.v !== undefined
          ? `<v>${esc(String(cell.v))}</v>`
          : '';
    return `<c r="${ref}"${attrs}>${f}${value}</c>`;
  };
  const parts: Zippable = {};
  spec.sheets.forEach((sheet, n) => {
    const first = sheet.firstRow ?? 1;
    const rows = sheet.rows
      .map((cells, i) => {
        const r = first + i;
        return `<row r="${r}">${cells.map((c, col) => cellXml(c, `${columnLetters(col)}${r}`)).join('')}</row>`;
      })
      .join('');
    const merges = sheet.merges?.length
      ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`
      : '';
    parts[`xl/worksheets/sheet${n + 1}.xml`] = strToU8(
      `${HEAD}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}"><sheetData>${rows}</sheetData>${merges}</worksheet>`,
    );
  });
  const sheets = spec.sheets
    .map(
      (s, n) =>
        `<sheet name="${esc(s.name)}" sheetId="${n + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${n + 1}"/>`,
    )
    .join('');
  const pr = spec.date1904 ? '<workbookPr date1904="1"/>' : '<workbookPr/>';
  parts['xl/workbook.xml'] = strToU8(
    `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL_NS}">${pr}<sheets>${sheets}</sheets></workbook>`,
  );
  const rels = spec.sheets
    .map(
      (_, n) =>
        `<Relationship Id="rId${n + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${n + 1}.xml"/>`,
    )
    .join('');
  const extraRels =
    `<Relationship Id="rIdS" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
    `<Relationship Id="rIdT" Type="${REL_NS}/styles" Target="styles.xml"/>`;
  parts['xl/_rels/workbook.xml.rels'] = strToU8(
    `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}${extraRels}</Relationships>`,
  );
  parts['xl/sharedStrings.xml'] = strToU8(
    `${HEAD}<sst xmlns="${NS}" count="${shared.length}" uniqueCount="${shared.length}">${shared.map((t) => `<si><t xml:space="preserve">${esc(t)}</t></si>`).join('')}</sst>`,
  );
  const numFmts = spec.numFmts?.length
    ? `<numFmts count="${spec.numFmts.length}">${spec.numFmts.map((f) => `<numFmt numFmtId="${f.id}" formatCode="${esc(f.code)}"/>`).join('')}</numFmts>`
    : '';
  const xfs = [0, ...(spec.styles ?? [])]
    .map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`)
    .join('');
  parts['xl/styles.xml'] = strToU8(
    `${HEAD}<styleSheet xmlns="${NS}">${numFmts}<cellXfs count="${(spec.styles?.length ?? 0) + 1}">${xfs}</cellXfs></styleSheet>`,
  );
  parts['[Content_Types].xml'] = strToU8(
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
  );
  return { ...parts, ...spec.extra };
}

/**
 * A workbook's bytes. Style index i in XlsxSpec.styles is the cell style s = i + 1 (style 0 is
 * the default, General).
 */
export function buildXlsx(spec: XlsxSpec): Uint8Array {
  return zipSync(xlsxParts(spec), { level: 6 });
}
