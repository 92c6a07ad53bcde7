// kradan's patches to chessgroundx 10.7.4, applied by build.mjs as esbuild loads each file: exact
// text replaced by exact text, each found exactly once (a new chessgroundx version that moved the
// text fails the build rather than shipping unpatched). They keep the board inside kradan's
// Content-Security-Policy (default-src 'self', so no inline style): styles are set through the
// CSSOM (element.style), which the policy allows, never as a style attribute.
export const PATCHES = {
  'pocket.js': [
    // the pockets' CSS variables, set as a style attribute (a violation for each pocket)
    [
      "pocketEl.setAttribute('style', `--pocketLength: ${pl}; --files: ${files}; --ranks: ${ranks}`);",
      "pocketEl.style.setProperty('--pocketLength', pl);" +
        " pocketEl.style.setProperty('--files', files);" +
        " pocketEl.style.setProperty('--ranks', ranks);",
    ],
    // the pockets emptied through the DOM, not by parsing markup
    ["pocketTop.innerHTML = '';", 'pocketTop.replaceChildren();'],
    ["pocketBottom.innerHTML = '';", 'pocketBottom.replaceChildren();'],
  ],
  'svg.js': [
    // the check counters (Kar Ouk's FEN has them) drew their disc with a style attribute; SVG
    // presentation attributes say the same and are no inline style
    [
      "<circle cx='16' cy='16' r='16' style='fill:${color};filter:url(#${shadowId})'/>",
      "<circle cx='16' cy='16' r='16' fill='${color}' filter='url(#${shadowId})'/>",
    ],
  ],
};

/** ``text`` of chessgroundx's ``name`` with its patches applied. */
export function patched(name, text) {
  let result = text;
  for (const [before, after] of PATCHES[name] || []) {
    const count = result.split(before).length - 1;
    if (count !== 1) throw new Error(`patch of chessgroundx/${name}: found ${count} times: ${before}`);
    result = result.replace(before, () => after);
  }
  return result;
}
