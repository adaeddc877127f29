import { describe, expect, it } from 'vitest';
import { toDocument } from '../src/document/write';
import { loadSpec } from '../src/load';
import { toMarkdown } from '../src/markdown/write';

// Point 1's brand, as data (docs/extending.md): the same in Markdown and YAML, written back unchanged,
// and refused where the client could not draw it.
const POINTS = [
  'Screens and routes',
  'Entities and fields',
  'States and transitions',
  'Validation rules',
  'Roles and permissions',
  'The calls it makes',
  'The error catalogue',
  'Business constants and limits',
];

function markdown(properties: string): string {
  const rest = POINTS.map((title, index) => `## ${index + 2}. ${title}\n\nNot shown.\n`).join('\n');
  return `# Tool Library\n\n## 1. What the product does and for whom\n\nLends tools.\n\n- For: Members\n${properties}\n${rest}`;
}

const BRAND =
  '- Brand colour: #2b8a3e\n- Logo: /brand/logo.svg\n- Font: Georgia, serif\n- Radius: 4\n- Density: compact\n';

describe("point 1's brand", () => {
  it('reads the same theme from Markdown and from YAML, and writes it back', () => {
    const fromMarkdown = loadSpec(markdown(BRAND), { file: 'library.md' });
    expect(fromMarkdown.issues).toEqual([]);
    const theme = fromMarkdown.model?.product.shown ? fromMarkdown.model.product.theme : undefined;
    expect(theme).toEqual({
      primaryColor: '#2b8a3e',
      logo: '/brand/logo.svg',
      font: 'Georgia, serif',
      radius: 4,
      density: 'compact',
    });
    const yaml = [
      'title: Tool Library',
      'product: { summary: Lends tools., audience: [Members], brandColor: "#2b8a3e", logo: /brand/logo.svg, font: "Georgia, serif", radius: 4, density: compact }',
      ...['screens', 'entities', 'states', 'validation', 'roles', 'calls', 'errors', 'constants'].map(
        (key) => `${key}: not shown`,
      ),
    ].join('\n');
    const fromYaml = loadSpec(yaml, { file: 'library.yaml' });
    expect(fromYaml.issues).toEqual([]);
    expect(fromYaml.model).toEqual(fromMarkdown.model);
    const model = fromMarkdown.model;
    if (!model) throw new Error('loaded');
    expect(loadSpec(toMarkdown(model).text, { file: 'again.md' }).model).toEqual(model);
    expect(toDocument(model).product).toMatchObject({ brandColor: '#2b8a3e', radius: 4, density: 'compact' });
  });

  it('has no theme when point 1 states no brand', () => {
    const loaded = loadSpec(markdown(''), { file: 'plain.md' });
    expect(loaded.model?.product.shown && loaded.model.product.theme).toBeUndefined();
  });

  it('refuses a colour, a logo, a font or a radius the client could not draw, at its line', () => {
    const bad = [
      '- Brand colour: red; background: url(x)',
      '- Logo: https://elsewhere.example/logo.png',
      '- Font: x; color: red',
      '- Radius: 40',
    ].join('\n');
    const loaded = loadSpec(markdown(`${bad}\n`), { file: 'bad.md' });
    expect(loaded.ok).toBe(false);
    expect(
      loaded.issues.map((issue) => `${issue.source?.line} ${issue.code} ${issue.message.slice(0, 40)}`),
    ).toEqual([
      '8 invalid-value The brand colour "red; background: url(x',
      '9 invalid-value The logo "https://elsewhere.example/logo',
      '10 invalid-value The font of point 1 may not contain ; { ',
      '11 invalid-value The radius of point 1 is 40; give 0 to 3',
    ]);
    // A data: image and the forms of a CSS colour are accepted.
    const fine = loadSpec(
      markdown('- Brand colour: oklch(0.6 0.1 200)\n- Logo: data:image/svg+xml;base64,PHN2Zz4=\n'),
      { file: 'fine.md' },
    );
    expect(fine.issues).toEqual([]);
  });
});
