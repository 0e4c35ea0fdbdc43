// Finds the rep-facing English written outside a feature's text module: words in Svelte markup
// and in rep-facing attributes, and sentence-like string literals in scripts. What it reports is
// what a translator would miss. Sentence-like: a capital letter, a lower-case word, then a space
// or a stop ("Nothing changed.", "Sync now"); identifiers, CSS classes and keys never are.
import ts from 'typescript';
import { parse } from 'svelte/compiler';

export interface TextFinding {
  line: number;
  text: string;
}

/** Ends the line of a literal that is a name, not text (a font's name). */
export const NAME_MARK = '// a name, not text';
const WORDS = /\p{L}{2,}/u;
const SENTENCE = /^\s*\p{Lu}\p{Ll}*(?:[\s,.:;!?…]|$)/u;
const REP_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
]);

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Two words or more, or a word and a stop, from a capital: text a rep reads. */
function isSentence(text: string): boolean {
  const t = text.trim();
  return (
    SENTENCE.test(t) &&
    WORDS.test(t) &&
    ((t.match(/\p{L}+/gu)?.length ?? 0) >= 2 || /[.:!?…]$/u.test(t))
  );
}

/** Sentence-like string literals in TypeScript source. */
export function scriptText(source: string, offset = 0, whole = source): TextFinding[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const found: TextFinding[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) {
      text = node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
    }
    const parent = node.parent;
    const isImport = parent && (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent));
    const isKey = parent && ts.isPropertyAssignment(parent) && parent.name === node;
    const isType = parent && ts.isLiteralTypeNode(parent);
    if (text !== null && !isImport && !isKey && !isType && isSentence(text)) {
      const line = lineOf(whole, offset + node.getStart(file));
      // A proper name the app must not translate (a font) says so at the end of its line.
      if (!whole.split('\n')[line - 1]!.trimEnd().endsWith(NAME_MARK)) found.push({ line, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

interface SvelteNode {
  type?: string;
  name?: string;
  data?: string;
  start?: number;
  value?: unknown;
  [key: string]: unknown;
}

/** Words in a component's markup and rep-facing attributes, and sentences in its scripts. */
export function svelteText(source: string): TextFinding[] {
  const ast = parse(source, { modern: true }) as unknown as {
    fragment: SvelteNode;
    instance?: { content: { start: number; end: number } } | null;
    module?: { content: { start: number; end: number } } | null;
  };
  const found: TextFinding[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const n = node as SvelteNode;
    if (n.type === 'Text' && typeof n.data === 'string' && WORDS.test(n.data)) {
      found.push({ line: lineOf(source, n.start ?? 0), text: n.data.trim() });
    }
    // Expressions in markup: the same sentences as in a script.
    if (n.type === 'Literal' && typeof n.value === 'string' && isSentence(n.value)) {
      found.push({ line: lineOf(source, n.start ?? 0), text: n.value });
    }
    if (n.type === 'TemplateLiteral') {
      const quasis = (n.quasis as { value: { cooked?: string } }[]).map(
        (q) => q.value.cooked ?? '',
      );
      const text = quasis.join('{}');
      if (isSentence(text)) found.push({ line: lineOf(source, n.start ?? 0), text });
      return;
    }
    if (n.type === 'Attribute' && Array.isArray(n.value)) {
      for (const part of n.value as SvelteNode[]) {
        if (part.type === 'Text') {
          // Only the attributes a rep reads or hears; classes, names and values are code.
          if (REP_ATTRIBUTES.has(n.name ?? '') && WORDS.test(part.data ?? '')) {
            found.push({ line: lineOf(source, part.start ?? 0), text: `${n.name}="${part.data}"` });
          }
        } else walk(part);
      }
      return;
    }
    if (n.type === 'StyleDirective') return;
    for (const [key, value] of Object.entries(n)) {
      if (key === 'parent' || key === 'metadata') continue;
      walk(value);
    }
  };
  walk(ast.fragment);
  for (const script of [ast.instance, ast.module]) {
    if (!script) continue;
    const { start, end } = script.content;
    found.push(...scriptText(source.slice(start, end), start, source));
  }
  return found;
}
