// Writes bench/results/real-servers-tally.json: issue 39's per-server tally (lists, opens, creates,
// edits, deletes, pickers, messages on fields) of the clients imported from two real servers'
// descriptions. Run with `npx tsx bench/real-servers-tally.ts`; it installs the servers on first use.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { launchBrowser } from '../e2e/support/browser';
import { startNinefold } from '../e2e/support/ninefold';
import {
  directusPlans,
  type EntityTally,
  platformaticPlans,
  tallyEntity,
} from '../e2e/support/real-server-tally';
import { api, startDirectus, startPlatformatic } from '../e2e/support/real-servers';

const [platformatic, directus] = await Promise.all([startPlatformatic(), startDirectus()]);
const browser = await launchBrowser();
const tallies: EntityTally[] = [];
try {
  for (const supplier of ['Acme Bolts', 'Birch Gears'])
    await api(platformatic, 'POST', '/suppliers/', { name: supplier });
  await api(platformatic, 'POST', '/parts/', { name: 'M8 bolt', price: 0.25, supplierId: 1, stock: 100 });
  await api(directus, 'POST', '/items/events', { title: 'Spring fair', places: 40 });
  await api(directus, 'POST', '/items/signups', { name: 'Ada Byron', event: 1 });
  const [plain, cms] = await Promise.all([
    startNinefold('dev', platformatic.document, ['--api', platformatic.url]),
    startNinefold('dev', directus.document, ['--api', directus.url]),
  ]);
  try {
    for (const plan of platformaticPlans(platformatic))
      tallies.push(await tallyEntity(browser, 'Platformatic DB 2.61.0', plain, plan, false));
    for (const plan of directusPlans(directus))
      tallies.push(await tallyEntity(browser, 'Directus 11.3.5', cms, plan, true));
  } finally {
    await Promise.all([plain.stop(), cms.stop()]);
  }
} finally {
  await browser.close();
  await Promise.all([platformatic.stop(), directus.stop()]);
}
const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
const out = process.env.TALLY_OUT ?? new URL('./results/real-servers-tally.json', import.meta.url).pathname;
// The figures of an earlier commit, measured by hand in a worktree, stay beside the new ones.
const kept = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(
  out,
  `${JSON.stringify(
    {
      ...kept,
      metric:
        'steps a person completes through the imported client, each checked through the server’s own API',
      after: { commit: head, tallies },
    },
    null,
    2,
  )}\n`,
);
for (const tally of tallies)
  console.log(
    `${tally.server} ${tally.entity}: ${Object.entries(tally.steps)
      .map(([step, ok]) => `${step} ${ok ? 'yes' : 'NO'}`)
      .join(', ')}`,
  );
