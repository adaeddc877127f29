// The Markdown reader parses a document section by section and keeps the sections of the last one read,
// so that a keystroke in the playground parses one section again, not the whole document. The oracle is
// the whole document parsed at once: every block, with its position, must be the same.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import { describe, expect, it } from 'vitest';
import { markdownBlocks, parseWhole, sectionsOf } from '../src/markdown/blocks';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Every Markdown file of the repository: specifications, docs, fixtures (hostile ones too). */
function markdownFiles(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(path));
    else if (entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

const whole = (text: string) =>
  fromMarkdown(text, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] }).children;

const shop = readFileSync(join(ROOT, 'examples/shop.md'), 'utf8');

/** A small deterministic generator, so that a failure names a seed that shows it again. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Lines that could change where a block ends, or hold a heading that is not one. */
const HAZARDS = [
  '```',
  '```',
  '```js',
  '````',
  '~~~',
  '``` not `a` fence',
  '<!--',
  '<!--',
  '-->',
  '<!-- a note -->',
  'text with `<!--` in code',
  '## A heading',
  '# A title',
  '###### Deep',
  '',
  '',
  '',
  '> a quotation',
  '> ```',
  '- an item',
  '  - a nested item',
  '1. first',
  '| a | b |',
  '| - | - |',
  'A setext title',
  '---',
  '===',
  '    indented code',
  '## 3. Entities and fields\r',
];

/** Lines after which the document is parsed whole: put in one mutation in ten. */
const WHOLE_HAZARDS = [
  '    ```',
  '  ~~~',
  '\t```',
  '<div>',
  '</div>',
  '<pre>',
  '[ref]: https://example.test',
];

/** Runs of one to five hazards, put anywhere and often just before a heading, where the document is cut. */
function mutated(seed: number, base: string): string {
  const next = random(seed);
  const hazards = seed % 10 === 0 ? [...HAZARDS, ...WHOLE_HAZARDS] : HAZARDS;
  const lines = base.split('\n');
  const edits = 1 + Math.floor(next() * 4);
  for (let edit = 0; edit < edits; edit++) {
    const at = Math.floor(next() * (lines.length + 1));
    const heading = lines.findIndex((line, index) => index >= at && line.startsWith('#'));
    const place = next() < 0.6 && heading > 0 ? heading : at;
    const run = Array.from(
      { length: 1 + Math.floor(next() * 5) },
      () => hazards[Math.floor(next() * hazards.length)] as string,
    );
    lines.splice(place, 0, ...run);
  }
  return lines.join('\n');
}

describe('the Markdown reader’s blocks, parsed section by section', () => {
  it('cuts a specification into its sections, and holds every document of the repository equal to its whole parse', () => {
    expect(sectionsOf(shop).length).toBeGreaterThan(9);
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const expected = JSON.stringify(whole(text));
      expect(JSON.stringify(markdownBlocks(text)), relative(ROOT, file)).toBe(expected);
      // Again, from the sections kept of the first read.
      expect(JSON.stringify(markdownBlocks(text)), relative(ROOT, file)).toBe(expected);
    }
  });

  it('holds 120 mutations of a specification equal to their whole parse: fences, comments, HTML, lists and headings put where it cuts', () => {
    // The shop's title, screens and entities: headings of three depths, tables, lists and prose, small
    // enough to parse 240 times.
    const base =
      shop.slice(0, shop.indexOf('## 1.')) + shop.slice(shop.indexOf('## 2.'), shop.indexOf('## 4.'));
    let cut = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const text = mutated(seed, base);
      if (sectionsOf(text).length > 1) cut++;
      const blocks = markdownBlocks(text);
      const expected = whole(text);
      // Strings compare in a fraction of a deep equality's time; a difference is then shown in full.
      if (JSON.stringify(blocks) !== JSON.stringify(expected))
        expect(blocks, `seed ${seed}`).toEqual(expected);
    }
    // Most mutations still leave the document cut: the test is of the cutting, not of the fallback.
    expect(cut).toBeGreaterThan(90);
  }, 120_000);

  // Each holds a line that looks like a heading after a blank line but is not one, or one that is.
  it.each([
    ['a heading in a fence', '# T\n\n```\n\n## In a fence\n\n```\n\n## After\n'],
    ['a fence closed only by its own mark', '# T\n\n~~~~\n```\n\n## In\n~~~~\n\n## Out\n'],
    ['a fence closed only by as long a mark', '# T\n\n````\n\n## In\n```\n\n## Still in\n````\n\n## Out\n'],
    ['a fence never closed', '# T\n\n```js\n\n## In to the end\n'],
    ['a closing mark with words after it', '# T\n\n```\n\n``` more\n\n## In\n```\n'],
    ['a code span, not a fence', '# T\n\n``` not `a` fence\n\n## A heading\n'],
    ['a heading in a comment', '# T\n\n<!--\n\n## In a comment\n\n-->\n\n## Out\n'],
    ['a fence mark in a comment', '# T\n\n<!--\n```\n-->\n\n## A heading\n```\n\n## In\n'],
    ['a comment in a fence', '# T\n\n```\n<!--\n```\n\n## A heading\n\n-->\n'],
    ['a comment in a code span', '# T\n\ntext `<!--` code\n\n## A heading\n\n`-->`\n'],
    ['a fence in a list item', '# T\n\n- item\n\n  ```\n\n## A heading\n\n  ```\n'],
    ['a fence in a quotation', '# T\n\n> ```\n\n## A heading\n```\n\n## In\n'],
    ['an HTML block', '# T\n\n<pre>\n\n## In\n</pre>\n\n## Out\n'],
    ['a link reference used in a later section', '# T\n\n[a]: https://example.test\n\n## H\n\n[a]\n'],
    ['Windows line ends', '# T\r\n\r\n```\r\n\r\n## In\r\n```\r\n\r\n## Out\r\n\r\ntext\r\n'],
    ['headings with no blank line before them', '# T\n## One\ntext\n### Two\n| a |\n| - |\n## Three\n'],
  ])('reads %s as the whole parse does', (_name, text) => {
    expect(markdownBlocks(text)).toEqual(whole(text));
  });

  it('parses only the section a keystroke changed, and every block of the others is where it was', () => {
    // The sections parsed, counted by a parser that passes each to the real one.
    let parses = 0;
    const counted = (text: string) => {
      parses++;
      return parseWhole(text);
    };
    markdownBlocks(shop, counted);
    expect(shop.indexOf('| Customer')).toBeGreaterThan(0);
    let text = shop;
    for (const key of 'Loyalty tier') {
      const position = text.indexOf('| Customer') + 1;
      text = text.slice(0, position) + key + text.slice(position);
      parses = 0;
      const blocks = markdownBlocks(text, counted);
      expect(parses).toBe(1);
      expect(blocks).toEqual(whole(text));
    }
    // A line added shifts every later section's lines without parsing them again.
    text = text.replace('## 5.', 'A line of preface to point 5.\n\n## 5.');
    parses = 0;
    expect(markdownBlocks(text, counted)).toEqual(whole(text));
    expect(parses).toBeLessThanOrEqual(2);
  });

  it('gives the reader blocks of its own: what it does to them never reaches the next read', () => {
    const first = markdownBlocks(shop);
    const heading = first.find((block) => block.type === 'heading');
    if (heading?.type !== 'heading') throw new Error('shop.md has a heading');
    heading.depth = 6;
    heading.children = [];
    expect(markdownBlocks(shop)).toEqual(whole(shop));
  });
});
