import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Resolves once no finite animation has run for three frames running (at most about two seconds). */
const SETTLED = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const running = () => document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
  for (let quiet = 0, frames = 0; quiet < 3 && frames < 120; frames++) {
    await frame();
    const now = running();
    if (now.length === 0) quiet++;
    else {
      quiet = 0;
      await Promise.allSettled(now.map((animation) => animation.finished));
    }
  }
})()`;

/**
 * Runs axe-core on the page and returns the serious and critical violations, each with the selectors
 * of the offending elements, so a failure says what to fix. axe is evaluated through the DevTools
 * protocol, which the page's Content-Security-Policy does not govern.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // A dialog or notice still fading in has the colours of its half-way opacity: contrast is judged on
  // what a person sees once it has settled, not on a frame of the animation. Mantine starts a transition
  // two frames after it mounts the element (its pre-entering state), so an empty list of animations seen
  // once may be one that has not started yet: the page must be quiet for three frames running.
  // Strings, not functions: the benchmarks that share this are type-checked without the DOM's types.
  // An endless animation (a text cursor's blink, a spinner) never finishes: only the others are waited for.
  await page.evaluate(SETTLED);
  await page.evaluate(axeSource);
  const violations = (await page.evaluate('axe.run(document).then((result) => result.violations)')) as Array<{
    id: string;
    impact: string | null;
    help: string;
    nodes: Array<{ target: string[] }>;
  }>;
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
