import type { Page } from 'playwright-core';

/**
 * What a person would see as broken on the visible page at its current width, each as a sentence naming the
 * element: the page scrolling sideways, something reaching past the screen's edge, a button's label wrapped onto a
 * second line, text cut off by its box, and a field's placeholder or chosen option wider than the field.
 */
export function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const width = document.documentElement.clientWidth;
    /** Drawn for sighted users: not hidden, not inside a closed <details> (its summary aside), not 1 px wide for screen readers only. */
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(el).visibility === 'hidden' || el.closest('[hidden], [inert]'))
        return false;
      const closed = el.closest('details:not([open])');
      if (closed && !el.closest('summary')) return false;
      for (let p: Element | null = el; p; p = p.parentElement) if (p.classList.contains('visually-hidden')) return false;
      return true;
    };
    const name = (el: Element) => {
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${cls} "${text}"`;
    };
    /** How many lines an element's visible text takes (its text's boxes at distinct heights). */
    const lines = (el: Element) => {
      const bottoms = new Set<number>();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || !node.parentElement || !visible(node.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) bottoms.add(Math.round(rect.bottom));
      }
      // Boxes of one line differ by a pixel or two (bold, emoji); a new line is at least half a line lower.
      return [...bottoms].sort((a, b) => a - b).filter((b, i, all) => i === 0 || b - all[i - 1]! > 8).length;
    };
    const canvas = document.createElement('canvas').getContext('2d')!;
    const textWidth = (text: string, el: Element) => {
      const style = getComputedStyle(el);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return canvas.measureText(text).width;
    };
    const contentWidth = (el: HTMLElement) => {
      const style = getComputedStyle(el);
      return el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    };

    if (document.documentElement.scrollWidth > width) faults.push(`the page is ${document.documentElement.scrollWidth} px wide`);

    for (const el of document.querySelectorAll('body *')) {
      if (!visible(el)) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      // Off the side of the screen (inside a box that scrolls sideways, it can be scrolled to).
      const crosses = (box.left < width - 1 && box.right > width + 1) || (box.left < -1 && box.right > 1);
      if (crosses && style.position !== 'fixed') {
        let inScroller = false;
        for (let p = el.parentElement; p && !inScroller; p = p.parentElement)
          inScroller = ['auto', 'scroll'].includes(getComputedStyle(p).overflowX);
        if (!inScroller) faults.push(`${name(el)} reaches past the screen's edge (${Math.round(box.left)}–${Math.round(box.right)})`);
      }
      // Past the padding of the panel it sits in, where the panel's other content lines up.
      const panel = el.parentElement?.closest('.panel');
      if (panel && !crosses) {
        const panelBox = panel.getBoundingClientRect();
        const panelStyle = getComputedStyle(panel);
        const inner = panelBox.right - Number.parseFloat(panelStyle.borderRightWidth) - Number.parseFloat(panelStyle.paddingRight);
        let inScroller = false;
        for (let p = el.parentElement; p && p !== panel && !inScroller; p = p.parentElement)
          inScroller = ['auto', 'scroll'].includes(getComputedStyle(p).overflowX);
        if (box.right > inner + 1 && !inScroller && style.position !== 'absolute') {
          faults.push(`${name(el)} reaches ${Math.round(box.right - inner)} px past its panel's padding`);
        }
      }
      // Text its box cuts off.
      const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      if (clips && el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim() && !el.classList.contains('visually-hidden')) {
        faults.push(`${name(el)} is cut off (${el.scrollWidth} px of text in ${el.clientWidth})`);
      }
      // A button-shaped control's label is one line.
      const labelLines = el.matches('.button, .credits-badge') && !el.closest('.plan-card') ? lines(el) : 1;
      if (labelLines > 1) {
        faults.push(`${name(el)} wraps onto ${labelLines} lines`);
      }
      if (el instanceof HTMLInputElement && ['text', 'search', 'url', 'email', 'number', ''].includes(el.type)) {
        const room = contentWidth(el);
        if (el.placeholder && !el.value && textWidth(el.placeholder, el) > room + 1) {
          faults.push(
            `${name(el)}'s placeholder "${el.placeholder}" is cut off (${Math.round(textWidth(el.placeholder, el))} px in ${Math.round(room)})`,
          );
        }
      }
      if (el instanceof HTMLSelectElement) {
        // The chosen option, in the room its padding leaves beside the arrow.
        const chosen = el.selectedOptions[0]?.textContent ?? '';
        if (textWidth(chosen, el) > contentWidth(el)) faults.push(`${name(el)} cuts its chosen option "${chosen}"`);
      }
    }
    return faults;
  });
}
