// The browser tests' contrast check (tests/test_server_browser.py): every visible element holding
// text of its own, against every colour that may lie behind it (gradient stops included),
// with its ancestors' opacity; returns those below the ratio given (the WCAG 2 formula).
const bar = arguments[0];
function parse(colour) {
  const m = colour.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
}
function blend(top, bottom) {
  const a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const mix = (x, y) => (x * top.a + y * bottom.a * (1 - top.a)) / a;
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a };
}
function luminance(c) {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
}
function ratio(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
// The possible backgrounds behind an element: its own colour over its ancestors', and every
// colour stop of a gradient on the way.
function backgrounds(element) {
  const layers = [];
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
    const style = getComputedStyle(node);
    const stops = (style.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse);
    const colour = parse(style.backgroundColor);
    layers.push({ colour, stops });
    if (colour && colour.a === 1 && !stops.length) break;
  }
  let results = [{ r: 255, g: 255, b: 255, a: 1 }];
  for (const layer of layers.reverse()) {
    let next = results;
    if (layer.stops.length) next = layer.stops.flatMap((stop) => results.map((under) => blend(stop, under)));
    if (layer.colour && layer.colour.a > 0) next = next.map((under) => blend(layer.colour, under));
    results = next;
  }
  return results;
}
const failures = [];
for (const element of document.querySelectorAll("body *")) {
  if (element.closest("svg, script, style, [hidden], option")) continue;
  const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const box = element.getBoundingClientRect();
  if (!box.width || !box.height || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
  const style = getComputedStyle(element);
  let colour = parse(style.color);
  let opacity = 1;
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
  const worst = Math.min(...backgrounds(element).map((bg) => ratio(blend({ ...colour, a: colour.a * opacity }, bg), bg)));
  if (worst < bar) failures.push({ text: element.textContent.trim().slice(0, 40), ratio: Math.round(worst * 100) / 100, color: style.color, cls: element.className });
}
return failures;
