// Render TeX to HTML at build time with KaTeX (node_modules/katex, pinned by package-lock.json), for
// book/_ext/book_math.py. Reads a JSON array of {tex, display} on stdin; writes a JSON array of
// {html} or {error} in the same order. An error names the formula, so the build can say which one is wrong.
"use strict";
const katex = require("katex");
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", chunk => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({tex, display}) => {
    try {
      return {html: katex.renderToString(tex, {displayMode: display, output: "htmlAndMathml", throwOnError: true,
                                               strict: "error", trust: false})};
    } catch (e) {
      return {error: String(e.message || e)};
    }
  });
  process.stdout.write(JSON.stringify(out));
});
