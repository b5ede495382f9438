"""What "phone-first" means, as checks on a real page.

Every game's phone test calls these at 375x667 and 412x915, light and dark:

- :func:`assert_fits`: nothing makes the page scroll sideways; every total (an element
  marked ``data-total-for="<player or team>"``, the big totals pinned at the top of each
  sheet) lies inside the viewport's width with its text unclipped; a part of the sheet that
  is wider than its box scrolls on its own (``overflow-x: auto``), with a sticky first
  column and a visible cue (an element ``[data-scroll-cue]`` in or beside it).
- :func:`save_and_see_notice`: after a tap on Save the answer's notice (``.notice``) is in
  the viewport within 1 s, valid or refused.
- :func:`assert_tap_targets`: every control is at least 44x44 CSS px, or at least 24x24
  with no other control within a 44x44 square around its centre. A radio or checkbox
  inside a label counts as its label; a link inside a sentence (``p``, ``li`` text) is
  exempt, as in WCAG 2.2's target-size rule. With ``strict=True`` (a keypad tapped many
  times a turn, e.g. the card picker's ranks) spacing doesn't count: every control is
  at least 44x44.
- :func:`assert_in_first_screen`: an element (the host's QR) is above the fold.

The checks return nothing and fail with a list of what is wrong, named so a person can
find it (tag, id, class, text).
"""
from __future__ import annotations

from playwright.sync_api import Page

#: The phones every game is checked on: the smallest in use, and a large one.
SIZES = [{"width": 375, "height": 667}, {"width": 412, "height": 915}]

_DESCRIBE = """
function describe(el) {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  if (el.classList.length) s += '.' + [...el.classList].join('.');
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
  return s + (text ? ` "${text.slice(0, 30)}"` : '');
}
function visible(el) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return false;
  const cs = getComputedStyle(el);
  return cs.visibility !== 'hidden' && cs.display !== 'none' && !el.closest('details:not([open]) > :not(summary)');
}
"""

def _script(body: str) -> str:
    """`body` (an arrow function of one argument) with the helpers above in scope."""
    return "(arg) => {" + _DESCRIBE + " return (" + body + ")(arg); }"


_FITS = _script("""
(selector) => {
  const problems = [];
  const w = document.documentElement.clientWidth;
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > w + 1) problems.push(`the page is ${pageWidth}px wide on a ${w}px screen`);
  const totals = [...document.querySelectorAll('[data-total-for]')].filter(visible);
  if (!totals.length) problems.push('no totals ([data-total-for]) on the page');
  for (const el of totals) {
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > w + 1)
      problems.push(`total ${describe(el)} lies at x=${Math.round(r.left)}..${Math.round(r.right)}`);
    if (el.scrollWidth > el.clientWidth + 1)
      problems.push(`total ${describe(el)} is clipped (${el.scrollWidth} > ${el.clientWidth})`);
  }
  for (const el of document.querySelectorAll(selector + ' *')) {
    if (!visible(el) || el.scrollWidth <= el.clientWidth + 1) continue;
    const cs = getComputedStyle(el);
    if (cs.overflowX === 'visible') continue;          // overflow shows in the page width
    if (!['auto', 'scroll'].includes(cs.overflowX)) {
      if (el.matches('input, select, textarea')) continue;
      problems.push(`${describe(el)} clips its content (${el.scrollWidth} > ${el.clientWidth})`);
      continue;
    }
    const cue = el.querySelector('[data-scroll-cue]') || (el.parentElement && el.parentElement.querySelector('[data-scroll-cue]'));
    if (!cue) problems.push(`${describe(el)} scrolls sideways with no [data-scroll-cue]`);
    const row = el.querySelector('tr');
    const first = row && row.firstElementChild;
    if (first && getComputedStyle(first).position !== 'sticky')
      problems.push(`${describe(el)} scrolls sideways but its first column isn't sticky`);
  }
  return problems;
}
""")

_TARGETS = _script("""
([scope, strict]) => {
  const root = document.querySelector(scope) || document;
  const found = [...root.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')]
    .filter(visible)
    .map(el => (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) || el)
    .filter(el => !(el.matches('a') && el.parentElement && el.parentElement.matches('p, li, span, small') && (el.parentElement.innerText || '').trim().length > (el.innerText || '').trim().length + 8));
  const targets = [...new Set(found)];
  const boxes = targets.map(el => el.getBoundingClientRect());
  const problems = [];
  targets.forEach((el, i) => {
    const r = boxes[i];
    if (r.width >= 44 - 0.5 && r.height >= 44 - 0.5) return;
    if (strict || r.width < 24 - 0.5 || r.height < 24 - 0.5) {
      problems.push(`${describe(el)} is ${Math.round(r.width)}x${Math.round(r.height)}`);
      return;
    }
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const near = targets.find((other, j) => {
      if (j === i || other.contains(el) || el.contains(other)) return false;
      const o = boxes[j];
      return o.left < cx + 22 && o.right > cx - 22 && o.top < cy + 22 && o.bottom > cy - 22;
    });
    if (near) problems.push(`${describe(el)} is ${Math.round(r.width)}x${Math.round(r.height)} with ${describe(near)} close by`);
  });
  return problems;
}
""")

_NOTICE_IN_VIEW = _script("""
() => [...document.querySelectorAll('.notice')].filter(visible).some(n => {
  const r = n.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.height > 0 && n.innerText.trim().length > 0;
})
""")

_NOTICES_IN_VIEW = _script("""
() => [...document.querySelectorAll('.notice')].filter(visible)
  .filter(n => { const r = n.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
  .map(n => n.innerText.trim()).join(' | ')
""")


def assert_fits(page: Page, scope: str = "#play") -> None:
    """Nothing scrolls sideways, every total is in view and unclipped (see module doc)."""
    problems = page.evaluate(_FITS, scope)
    assert not problems, f"{page.viewport_size}: " + "; ".join(problems)


def assert_tap_targets(page: Page, scope: str = "body", strict: bool = False) -> None:
    """Every control in `scope` is big enough to hit with a thumb (see module doc); with
    `strict`, every one is at least 44x44, however far from the others."""
    problems = page.evaluate(_TARGETS, [scope, strict])
    assert not problems, f"small tap targets at {page.viewport_size}: " + "; ".join(problems)


def save_and_see_notice(page: Page, button: str, timeout_ms: int = 1000) -> str:
    """Tap `button` and wait (at most `timeout_ms`) until a notice is in the viewport;
    returns the text of the notices in view. Clears old notices first, so the one seen is
    the answer to this tap."""
    page.evaluate("() => document.querySelectorAll('.notice').forEach(n => n.remove())")
    page.locator(button).click()
    page.wait_for_function(_NOTICE_IN_VIEW, timeout=timeout_ms)
    return page.evaluate(_NOTICES_IN_VIEW)


def assert_in_first_screen(page: Page, selector: str) -> None:
    """`selector` is on the first screen: its bottom above the fold, without scrolling."""
    page.evaluate("() => window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (
        f"{selector} spans y={box['y']:.0f}..{box['y'] + box['height']:.0f} on a "
        f"{height}px-high screen")


def tap_cards(picker, cards: list[str]) -> None:
    """Tap cards on a card picker: the rank, then the suit (JK: the joker button)."""
    for card in cards:
        if card == "JK":
            picker.locator('[data-card="JK"]').click()
        else:
            picker.locator(f'[data-rank="{card[:-1]}"]').click()
            picker.locator(f'[data-suit="{card[-1]}"]').click()
