"""Colour contrast of text as a browser paints it (WCAG 2 relative luminance), with the
background found by laying the element's and its ancestors' backgrounds over each other."""

# JavaScript: the contrast ratio of an element's text against what is behind it.
CONTRAST = """(element) => {
  const parse = (css) => {
    const m = css.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const bg = parse(getComputedStyle(e).backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] >= 1) break;
  }
  let back = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) {
    back = [r * a + back[0] * (1 - a), g * a + back[1] * (1 - a), b * a + back[2] * (1 - a)];
  }
  const [fr, fg, fb, fa] = parse(getComputedStyle(element).color);
  const fore = [fr * fa + back[0] * (1 - fa), fg * fa + back[1] * (1 - fa), fb * fa + back[2] * (1 - fa)];
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
  return {ratio: (hi + 0.05) / (lo + 0.05), fore, back};
}"""

AA_TEXT = 4.5


def contrast(locator) -> dict:
    return locator.evaluate(CONTRAST)
