import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets the console is held to: WCAG 2.0/2.1 level A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

export interface Finding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  summary: string;
}

/** Makes axe-core available in every page of the context. */
export async function installAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE_SOURCE });
}

/**
 * Waits until the page has settled: the console drawn, the top loading bar idle, no spinner and
 * no loading status left, and the DOM unchanged for a moment. Gives up quietly after timeoutMs (a page that spins
 * for ever is still checked as it is).
 */
export async function settle(page: Page, timeoutMs = 15_000): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const w = window as unknown as { __settle?: { html: number; since: number } };
        const busy =
          // the bundle has not drawn the console yet
          (document.getElementById('root')?.childElementCount ?? 0) === 0 ||
          document.querySelector('[data-phase="loading"], .arco-spin-loading, .arco-skeleton, [aria-busy="true"]') !== null ||
          // a table wraps its rows in a Spin for good: only a drawn spinner icon means loading
          Array.from(document.querySelectorAll('.arco-spin-icon')).some((icon) => (icon as HTMLElement).offsetParent !== null);
        const size = document.body.innerHTML.length;
        const now = performance.now();
        if (busy || !w.__settle || w.__settle.html !== size) {
          w.__settle = { html: size, since: now };
          return false;
        }
        return now - w.__settle.since > 600;
      },
      undefined,
      { timeout: timeoutMs, polling: 150 },
    )
    .catch(() => undefined);
}

/** Runs axe on the page and returns its serious and critical findings. */
export async function seriousFindings(page: Page): Promise<Finding[]> {
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations as {
      id: string;
      impact: string | null;
      help: string;
      nodes: {
        target: unknown[];
        failureSummary?: string;
        any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[];
      }[];
    }[];
  }, AXE_TAGS);
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
      summary:
        violation.id === 'color-contrast'
          ? contrastPairs(violation.nodes)
          : (violation.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? ''),
    }));
}

/** The distinct colour pairs of contrast findings: "#86909c on #ffffff 3.23". */
function contrastPairs(nodes: { any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[] }[]) {
  const pairs = new Set<string>();
  for (const node of nodes) {
    const data = node.any.find((check) => check.data?.fgColor)?.data;
    if (data) {
      pairs.add(`${data.fgColor} on ${data.bgColor} ${data.contrastRatio}`);
    }
  }
  return Array.from(pairs).join('; ');
}

/** A readable list of findings, one block per page and rule. */
export function report(findings: Map<string, Finding[]>): string {
  const lines: string[] = [];
  for (const [where, list] of findings) {
    for (const finding of list) {
      lines.push(`${where}: ${finding.rule} (${finding.impact}, ${finding.targets.length} nodes) ${finding.help}`);
      for (const target of finding.targets.slice(0, 4)) {
        lines.push(`    ${target}`);
      }
      if (finding.summary) {
        lines.push(`    ${finding.summary}`);
      }
    }
  }
  return lines.join('\n');
}
