// Layout checks for a screen as a finger and an eye meet it: every control at least 44×44 px, no
// two controls overlapping, no text cut off, no horizontal scroll. Map provinces are left out:
// tiny ones are reached by the map's tap rules (tests/e2e/ui-taps.test.ts), not by their outline.
import type { Page } from 'playwright-core';

export interface LayoutProblem {
  readonly kind: 'small' | 'overlap' | 'cut' | 'scroll';
  readonly what: string;
}

export function checkLayout(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: { kind: 'small' | 'overlap' | 'cut' | 'scroll'; what: string }[] = [];
    const visible = (el: Element): boolean => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.visibility === 'hidden' || cs.display === 'none') return false;
        if (e.tagName === 'DETAILS' && !(e as HTMLDetailsElement).open && e !== el && !el.closest('summary')) return false;
      }
      return !el.closest('.visually-hidden');
    };
    const describe = (el: Element): string => {
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const data = [...el.attributes]
        .filter((a) => a.name.startsWith('data-'))
        .map((a) => `${a.name}=${a.value}`)
        .join(' ');
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}${data ? ` [${data}]` : ''} "${name}"`;
    };
    // Controls, and for a checkbox or radio the label around it (what a finger hits).
    const targets: Element[] = [];
    for (const el of document.querySelectorAll('a[href], button, select, textarea, input, summary, [role="button"], [tabindex]:not([tabindex="-1"])')) {
      if (el.closest('svg.board-svg')) continue;
      if (!visible(el)) continue;
      const input = el as HTMLInputElement;
      const target = el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio') ? (el.closest('label') ?? el) : el;
      if (!targets.includes(target)) targets.push(target);
    }
    const boxes = targets.map((el) => ({ el, r: el.getBoundingClientRect() }));
    for (const { el, r } of boxes)
      if (r.width < 43.5 || r.height < 43.5) problems.push({ kind: 'small', what: `${describe(el)} ${Math.round(r.width)}×${Math.round(r.height)}` });
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (w > 0.5 && h > 0.5) problems.push({ kind: 'overlap', what: `${describe(a.el)} / ${describe(b.el)}` });
      }
    }
    // Text cut off: an element whose own text is wider than its box (and is not meant to scroll).
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('svg') || ['INPUT', 'TEXTAREA', 'SELECT', 'OPTION', 'SCRIPT', 'STYLE'].includes(el.tagName)) continue;
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!hasText || !visible(el)) continue;
      const cs = getComputedStyle(el);
      if (cs.display.startsWith('inline') && cs.display !== 'inline-block' && cs.display !== 'inline-flex') continue;
      if (['auto', 'scroll'].includes(cs.overflowX) || el.closest('pre, .chart-table')) continue;
      if (el.scrollWidth > el.clientWidth + 1) problems.push({ kind: 'cut', what: `${describe(el)} ${el.scrollWidth}>${el.clientWidth}` });
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push({ kind: 'scroll', what: `page ${document.documentElement.scrollWidth}>${window.innerWidth}` });
    return problems;
  });
}
