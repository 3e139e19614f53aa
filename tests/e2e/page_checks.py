"""What every page must pass in the browser, at a phone's size and a desktop's: it fits
the screen, axe-core finds nothing serious, its text can be read, and a screenshot of it
is kept for a person to look at (test-artifacts/screenshots/, git-ignored).

Each check returns the problems it found as lines of text, so that a test can report
all of a page's problems at once.
"""

from __future__ import annotations

from pathlib import Path

from .contrast import AA_TEXT, CONTRAST

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
# The rest of a browser context at each size: a phone has a touch screen and no mouse
# (so CSS sees ``hover: none`` and ``pointer: coarse``).
DEVICES = {"phone": {"has_touch": True, "is_mobile": True}, "desktop": {}}
ICON_LIMIT = 64
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# axe-core's impacts that fail a page; "moderate" and "minor" ones are left to judgement.
FAILING_IMPACTS = {"serious", "critical"}

# Measured in the page: its width against the viewport's, the elements that stick out of
# it, the boxes whose content spills out sideways (a line that cannot wrap), and the icons
# with their rendered size (every svg or img but a domino tile and the rating chart,
# which are meant to be large).
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined
    ? '.' + String(e.className).trim().split(/\\s+/).join('.') : '');
  const seen = [...document.querySelectorAll('body *')].filter(e => !e.closest('.visually-hidden'));
  // Inside a box that scrolls sideways (a wide table on a phone) content may be wider:
  // the box itself is measured.
  const scrolled = e => { for (let a = e.parentElement; a; a = a.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true; } return false; };
  const wide = seen
    .filter(e => e.getBoundingClientRect().right > width + 1 && e.getClientRects().length && !scrolled(e))
    .map(name);
  const spilling = seen
    .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
                 && getComputedStyle(e).overflowX === 'visible')
    .map(e => name(e) + ' ' + e.scrollWidth + '>' + e.clientWidth);
  const icons = [...document.querySelectorAll('svg:not(.tile-svg):not(.rating-chart svg), img')]
    .map(e => [e.getAttribute('class') || e.tagName, e.getBoundingClientRect()])
    .filter(([, r]) => r.width > %d || r.height > %d)
    .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  return {scroll: document.scrollingElement.scrollWidth, width, wide: wide.slice(0, 5),
          spilling: spilling.slice(0, 5), icons};
}""" % (ICON_LIMIT, ICON_LIMIT)

# Every element that paints text of its own (a text node among its children), seen on the
# screen, with the contrast of that text (contrast.py) and a name to find it by.
TEXT_CONTRAST = """(elements) => {
  const contrast = %s;
  const painted = (e) => e.getClientRects().length && !e.closest('.visually-hidden, [hidden]')
    && getComputedStyle(e).visibility === 'visible';
  const ownText = (e) => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  return elements.filter(e => ownText(e) && painted(e)).map(e => {
    const seen = contrast(e);
    const name = e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className
      ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
    return {name, text: e.textContent.trim().slice(0, 40), ratio: seen.ratio};
  });
}""" % CONTRAST


def layout_problems(page) -> list[str]:
    found = page.evaluate(MEASURE)
    problems = []
    if found["scroll"] > found["width"]:
        problems.append(f"scrolls sideways: {found['scroll']} px in {found['width']}")
    if found["wide"]:
        problems.append(f"wider than the viewport: {found['wide']}")
    if found["spilling"]:
        problems.append(f"content spills out of its box: {found['spilling']}")
    if found["icons"]:
        problems.append(f"icons over {ICON_LIMIT} px: {found['icons']}")
    return problems


def keys_problems(page) -> list[str]:
    """Words about keys that a phone has not got (run on a phone's pages)."""
    text = page.locator("body").inner_text()
    return [f"mentions keys on a phone: {line.strip()!r}" for line in text.splitlines()
            if "клавиш" in line.lower()]


def axe_problems(page) -> list[str]:
    """axe-core's serious and critical violations (axe-playwright-python bundles it)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"axe {v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"][:4])
            for v in found if v["impact"] in FAILING_IMPACTS]


def contrast_problems(page) -> list[str]:
    """Text under WCAG AA's 4.5:1 against what is painted behind it."""
    seen = page.locator("body *").evaluate_all(TEXT_CONTRAST)
    return [f"contrast {item['ratio']:.2f}:1 of {item['name']} ({item['text']!r})"
            for item in seen if item["ratio"] < AA_TEXT]


def screenshot(page, name: str) -> Path:
    """The whole page as the device shows it.  Chromium draws a full-page capture without
    the context's touch emulation (``pointer: coarse`` stops matching), so that a phone's
    page would be drawn with a mouse's styles; instead the viewport is made as tall as the
    page for the capture, and put back after."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    size = page.viewport_size
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height)})
    try:
        # caret="initial": hiding the caret would put a style attribute on the focused
        # field, which a later htmx swap copies and the Content-Security-Policy refuses.
        page.screenshot(path=str(path), caret="initial")
    finally:
        page.set_viewport_size(size)
    return path


def problems_of(page, name: str, size: str) -> list[str]:
    """Every check on the page as it is now at ``size``; its screenshot saved as
    ``<name>-<size>.png``."""
    problems = layout_problems(page) + axe_problems(page) + contrast_problems(page)
    if DEVICES[size].get("has_touch"):
        problems += keys_problems(page)
    screenshot(page, f"{name}-{size}")  # last: it resizes the viewport for a moment
    return problems
