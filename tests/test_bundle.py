"""tools/bundle.py on small made-up sites: what it joins, rewrites and leaves out (the built site's
pages are checked by tests/test_site.py, and in chromium by tests/test_browser.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

from tools.bundle import (
    BundleError,
    bundle_page,
    bundle_site,
    css_from,
    first_screen_end,
    fonts_script,
    katex_faces,
    katex_font_rules,
    plain_token_classes,
    purge,
    selector_used,
    split_selectors,
    unwrap_plain_tokens,
)

PAGE = """<!DOCTYPE html>
<html><head>
<meta charset="utf-8" />
<script data-cfasync="false">document.documentElement.dataset.mode = "light";</script>
<link href="_static/styles/theme.css?digest=1" rel="stylesheet" />
<link rel="stylesheet" type="text/css" href="_static/a.css?v=2" />
<link rel="stylesheet" type="text/css" href="_static/../../_vendor/m/m.css" />
<link rel="stylesheet" type="text/css" href="_static/z.css" />
<script src="_static/documentation_options.js?v=1"></script>
<script>DOCUMENTATION_OPTIONS.pagename = 'x';</script>
<link rel="canonical" href="https://example.org/x.html" />
</head><body><p class="used">text</p>
<script defer src="_static/late.js"></script>
</body></html>
"""


def site(tmp_path, page=PAGE, name="x.html"):
    lang = tmp_path / "en"
    (lang / "_static" / "styles").mkdir(parents=True)
    (tmp_path / "_vendor" / "m" / "fonts").mkdir(parents=True)
    (lang / "_static" / "styles" / "theme.css").write_text('@import "../basic.css";\n.used{color:red}\n')
    (lang / "_static" / "basic.css").write_text(".used{margin:0}\n.never{margin:1px}\n")
    (lang / "_static" / "a.css").write_text(
        '@charset "UTF-8";\n.used{background:url(img/bg.png?v=1#x)}\n.unused-rule{color:blue}\n'
        "/*# sourceMappingURL=a.css.map */\n")
    (tmp_path / "_vendor" / "m" / "m.css").write_text(
        "@font-face{font-family:M;src:url(fonts/M.woff2) format(\"woff2\")}\n.used{font-family:M}\n")
    (lang / "_static" / "z.css").write_text(".used,.gone{padding:0}\n")
    (lang / "_static" / "late.js").write_text("document.body.classList.add('from-script')\n")
    (lang / "_static" / "documentation_options.js").write_text(
        '"use strict";\nconst DOCUMENTATION_OPTIONS = {};\n//# sourceMappingURL=d.js.map\n')
    (lang / name).write_text(page)
    return lang / name


def test_a_page_loads_one_stylesheet_in_the_same_order(tmp_path):
    page = site(tmp_path)
    html = bundle_page(page, {}, {"used", "html", "body"})
    head, body = html.split("</head>")
    assert head.count('rel="stylesheet"') == 1 and '<link rel="canonical"' in head
    # the head's scripts are as they were: one file and the page's own inline code after it (which stays inline,
    # see the next test), the theme's inline script (an attribute of its own), the body's deferred script
    assert not re.search(r'<script src="_static/book-[0-9a-f]{12}\.js">', head)
    assert html.replace(re.search(r'<link rel="stylesheet"[^>]*>\n', html).group(0), "") == re.sub(
        r'<link (?:href="[^"]*" rel="stylesheet"|rel="stylesheet"[^>]*) />\n', "", PAGE)
    bundle = (page.parent / re.search(r'href="(_static/book-[0-9a-f]{12}\.css)"', head).group(1)).read_text()
    parts = [line for line in bundle.splitlines() if line.startswith("/* ")]
    assert parts == ["/* _static/styles/theme.css */", "/* _static/a.css */", "/* ../_vendor/m/m.css */",
                     "/* _static/z.css */"]
    # @import inlined; urls still point at the same files from _static/; no source map, no @charset
    assert ".used{margin:0}" in bundle.replace(" ", "") and "@import" not in bundle
    assert "url(img/bg.png?v=1#x)" in bundle and "url(../../_vendor/m/fonts/M.woff2)" in bundle
    assert "sourceMappingURL" not in bundle and "@charset" not in bundle
    # rules for classes no page or script names are left out; the font's @font-face stays
    assert ".never" not in bundle and ".unused-rule" not in bundle and ".gone" not in bundle
    assert "@font-face" in bundle and bundle.count(".used") == 5


def test_pages_that_load_the_same_stylesheets_share_one_file(tmp_path):
    page = site(tmp_path)
    (page.parent / "y.html").write_text(PAGE.replace("'x'", "'y'"))
    counts = bundle_site(tmp_path)
    # one stylesheet for both; no script file (a run of one file, and the page's own inline code stays inline)
    assert counts == {"pages": 2, "bundles": 1, "scripts": 0}
    assert len(list((page.parent / "_static").glob("book-*.css"))) == 1
    # a class a script adds is kept: the site's scripts count as much as its pages
    (page.parent / "_static" / "z.css").write_text(".from-script{padding:0}\n")
    (page.parent / "x.html").write_text(PAGE)
    bundle_site(tmp_path)
    assert any(".from-script" in f.read_text() for f in (page.parent / "_static").glob("book-*.css"))


def test_a_page_with_another_sites_stylesheet_is_left_as_it_is(tmp_path):
    page = site(tmp_path, PAGE.replace("_static/z.css", "https://cdn.example/z.css"))
    assert bundle_page(page, {}, {"used"}) == page.read_text()


def test_a_missing_stylesheet_is_an_error_that_names_it(tmp_path):
    page = site(tmp_path)
    (page.parent / "_static" / "z.css").unlink()
    with pytest.raises(BundleError, match=r"z\.css: a page links this stylesheet but the site has no such file"):
        bundle_page(page, {}, set())


def test_an_import_cycle_is_an_error(tmp_path):
    (tmp_path / "a.css").write_text('@import "b.css";\n')
    (tmp_path / "b.css").write_text('@import "a.css";\n')
    with pytest.raises(BundleError, match="@import cycle"):
        css_from(tmp_path / "a.css", tmp_path)


@pytest.mark.parametrize(("selector", "used"), [
    (".used", True),
    (".used .never", False),
    ("div > .used:hover::before", True),
    ("html[data-theme=dark] .used", True),
    (".used:not(.never)", True),               # a missing class inside :not() widens the match: kept
    (':is(.never, .used) [href$=".pdf"]', True),  # arguments and attribute values are not judged
    ("p", True),
    (".a\\:b", True),                            # an escaped class name is compared unescaped
])
def test_which_selectors_a_page_can_use(selector, used):
    assert selector_used(selector, {"used", "a:b"}) is used


def test_selector_lists_split_at_top_level_commas_only():
    assert split_selectors('.a, :is(.b, .c), [x="1,2"]') == [".a", " :is(.b, .c)", ' [x="1,2"]']


def test_purge_keeps_what_a_page_can_use_and_empties_nothing_it_keeps():
    css = ("@media (max-width: 10px){.never{a:b}.used{c:d}}@media print{.never{a:b}}"
           "@keyframes spin{from{opacity:0}to{opacity:1}}.never,.used{e:f}")
    out = purge(css, {"used"})
    assert "@media (max-width: 10px){.used{c:d}}" in out.replace("\n", "")
    assert "print" not in out and ".never" not in out
    assert "@keyframes spin" in out and ".used{e:f}" in out


# ---- KaTeX's fonts ----------------------------------------------------------------------------------------

KATEX_CSS = ("@font-face{font-family:KaTeX_Main;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Main-Regular.woff2)}"
             "@font-face{font-family:KaTeX_Math;font-style:italic;font-weight:400;src:url(fonts/KaTeX_Math-Italic.woff2)}"
             "@font-face{font-family:KaTeX_Main;font-style:normal;font-weight:700;src:url(fonts/KaTeX_Main-Bold.woff2)}"
             "@font-face{font-family:KaTeX_Size1;font-style:normal;font-weight:400;src:url(fonts/KaTeX_Size1-Regular.woff2)}"
             ".katex{font:normal 1.21em KaTeX_Main,Times New Roman,serif}.katex .mathnormal{font-family:KaTeX_Math;"
             "font-style:italic}.katex .textbf{font-weight:700}.katex .delimsizing.size1{font-family:KaTeX_Size1}"
             ".katex .delimsizing.mult .delim-size1>span{font-family:KaTeX_Size1}.katex-display{margin:1em 0}")
FORMULAS = ('<p>x <span class="katex"><span class="katex-mathml"><math><mi>W</mi><annotation>\\\\sum</annotation>'
            '</math></span><span class="katex-html"><span class="mord mathnormal">d</span><span class="mord">=1</span>'
            '<span class="mord text"><span class="mord textbf">ok</span></span></span></span> y</p>'
            '<span class="katex-display"><span class="katex"><span class="delimsizing mult"><span class="delim-size1">'
            '<span>∑</span></span></span></span></span><p class="mathnormal">not math</p>')


def test_the_fonts_of_each_formula_are_found_as_the_browser_would():
    rules, faces = katex_font_rules(KATEX_CSS)
    used = katex_faces(FORMULAS, rules)
    # the MathML (clipped to nothing, in the browser's math font) and text outside formulas do not count
    assert used == {("KaTeX_Math", "400", "italic"): {"d"}, ("KaTeX_Main", "400", "normal"): set("=1"),
                    ("KaTeX_Main", "700", "normal"): set("ok"), ("KaTeX_Size1", "400", "normal"): {"∑"}}
    assert set(used) <= set(faces) and faces[("KaTeX_Size1", "400", "normal")] == "fonts/KaTeX_Size1-Regular.woff2"


def test_the_fonts_script_holds_each_font_cut_down_to_its_characters(monkeypatch):
    import base64
    import io

    from fontTools.ttLib import TTFont

    fonts = ROOT / "node_modules" / "katex" / "dist" / "fonts"
    if not fonts.is_dir():
        pytest.fail("node_modules/katex is missing: run 'npm ci' (make test does)")
    script = fonts_script({"KaTeX_Main-Regular.woff2": ("KaTeX_Main", "400", "normal", Path("KaTeX_Main-Regular.woff2"),
                                                        set("=x"))}, fonts)
    data = re.search(r'add\("KaTeX_Main", "400", "normal", "([^"]+)"\);  // KaTeX_Main-Regular.woff2', script).group(1)
    cmap = TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()
    assert set(map(chr, cmap)) == set("=x0123456789()")  # and what KaTeX's CSS draws: equation numbers
    # the same bytes whenever it is built (fontTools would stamp the cut-down font with the time of the build,
    # giving the script a new name, and a reader's cache a new file, on every build)
    from fontTools.ttLib.tables import _h_e_a_d

    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_000_000)
    assert fonts_script({"KaTeX_Main-Regular.woff2": ("KaTeX_Main", "400", "normal",
                                                      Path("KaTeX_Main-Regular.woff2"), set("=x"))}, fonts) == script
    with pytest.raises(BundleError, match="KaTeX_Nope.ttf: missing"):
        fonts_script({"KaTeX_Nope.woff2": ("KaTeX_Nope", "400", "normal", Path("KaTeX_Nope.woff2"), {"x"})}, fonts)


def test_a_math_page_runs_the_fonts_script_before_its_stylesheet_and_paints_after_its_first_section(tmp_path):
    page = site(tmp_path, PAGE.replace('href="_static/z.css" />', 'href="_static/z.css" />\n<link rel="preload" '
                                       'href="../_vendor/m/fonts/M.woff2" as="font" type="font/woff2" crossorigin>')
                .replace("../../_vendor/m/m.css", "../../_vendor/katex/katex.min.css")
                .replace('<p class="used">text</p>', '<section id="a"><section id="b"></section><section id="c">'
                         '</section></section>'))
    (tmp_path / "_vendor" / "katex").mkdir()
    (tmp_path / "_vendor" / "katex" / "katex.min.css").write_text(".used{margin:0}")
    head = bundle_page(page, {}, {"used"}, ("_static/book-fonts-0.js", {"M.woff2"})).split("</head>")[0]
    assert re.search(r'<script src="_static/book-fonts-0\.js"></script>\n<link rel="stylesheet" type="text/css" '
                     r'href="_static/book-[0-9a-f]{12}\.css" />\n<link rel="expect" href="#c" blocking="render" />', head)
    assert 'rel="preload"' not in head  # the font is in the script
    assert first_screen_end('<section class="x" id="t"><section id="u">') == "u"
    assert first_screen_end('<div id="jb-print-docs-body">') == "jb-print-docs-body" and first_screen_end("") is None


PYGMENTS = """html[data-theme="light"] .highlight{ background: #fefefe; color: #080808 }
html[data-theme="light"] .highlight .n{ color: #080808 }
html[data-theme="light"] .highlight .p{ color: #080808 }
html[data-theme="light"] .highlight .k{ color: #0F1FA0; font-weight: bold }
html[data-theme="light"] .highlight .o{ color: #00622F }
html[data-theme="light"] .highlight .nb{ color: #080808 }
html[data-theme="dark"] .highlight{ background: #2b2b2b; color: #F8F8F2 }
html[data-theme="dark"] .highlight .n{ color: #F8F8F2 }
html[data-theme="dark"] .highlight .p{ color: #f8f8f2 }
html[data-theme="dark"] .highlight .nb{ color: #AAAAAA }
html[data-theme="dark"] .highlight .s{ color: #F8F8F2; font-style: italic }
.s{ color: #F8F8F2 }
@media print{ .highlight .w{ color: red } }
"""


def test_plain_tokens_are_those_drawn_in_the_blocks_own_colour_in_every_theme():
    plain, named = plain_token_classes(PYGMENTS)
    # n and p: the block's colour in both themes (case of the hex aside); nb differs in the dark theme, k and s
    # set more than a colour, o another colour; w is named only inside @media, so it is judged as named
    assert plain == {"n", "p"}
    assert {"n", "p", "k", "o", "nb", "s", "w"} <= named and "g" not in named


def test_plain_token_spans_are_unwrapped_inside_code_blocks_only():
    code = ('<div class="highlight"><pre><span></span><span class="k">def</span> <span class="nf">f</span>'
            '<span class="p">(</span><span class="n">x</span><span class="p">):</span>\n'
            '<span class="g g-Whitespace">    </span><span class="k">return</span> <span class="n">x</span>'
            '<span class="o">&amp;</span><span class="n">y</span>\n</pre></div>')
    body = f'<p><span class="n">outside</span></p>{code}<span class="p">kept</span>'
    out = unwrap_plain_tokens(body, ({"n", "p"}, {"n", "p", "k", "o", "nf"}))
    assert out == ('<p><span class="n">outside</span></p><div class="highlight"><pre><span class="k">def</span> '
                   '<span class="nf">f</span>(x):\n    <span class="k">return</span> x<span class="o">&amp;</span>y'
                   '\n</pre></div><span class="p">kept</span>')
    # the text is the same, character for character
    assert re.sub(r"<[^>]+>", "", out) == re.sub(r"<[^>]+>", "", body)
    assert unwrap_plain_tokens(body, (set(), {"n"})) == body


def test_a_site_page_loses_only_the_plain_spans_of_its_code(tmp_path):
    code = ('<div class="highlight"><pre><span></span><span class="n">x</span> <span class="o">=</span> '
            '<span class="k">None</span></pre></div>')
    page = site(tmp_path, PAGE.replace('<p class="used">text</p>', f'<p class="used">text</p>{code}'))
    (page.parent / "_static" / "z.css").write_text(PYGMENTS)
    bundle_site(tmp_path)
    assert ('<div class="highlight"><pre>x <span class="o">=</span> <span class="k">None</span></pre></div>'
            in page.read_text())


def test_the_tabs_script_stays_only_on_a_page_with_tabs(tmp_path):
    tabs = '<script data-sd-tabs-storage-prefix="sphinx-design-tab-id-" src="_static/design-tabs.js?v=1"></script>\n'
    page = site(tmp_path, PAGE.replace("<link rel=\"canonical\"", tabs + "<link rel=\"canonical\""))
    assert "design-tabs.js" not in bundle_page(page, {}, {"used"})
    page.write_text(page.read_text().replace('<p class="used">', '<div class="sd-tab-set"></div><p class="used">'))
    assert bundle_page(page, {}, {"used"}).count("design-tabs.js") == 1


def test_adjacent_scripts_run_from_one_file_that_pages_share(tmp_path):
    """A run of plain scripts in the head, files and inline code, runs from one file in its order; the inline
    code after the run's last file (the page's own, such as its name) stays inline, so that pages share the
    file."""
    scripts = ('<script src="_static/documentation_options.js?v=1"></script>\n<script>var shared = 1;</script>\n'
               '<script src="_static/late.js"></script>\n<script>DOCUMENTATION_OPTIONS.pagename = \'x\';</script>\n')
    page = site(tmp_path, PAGE.replace('<script src="_static/documentation_options.js?v=1"></script>\n'
                                       "<script>DOCUMENTATION_OPTIONS.pagename = 'x';</script>\n", scripts))
    (page.parent / "y.html").write_text(page.read_text().replace("'x'", "'y'"))
    assert bundle_site(tmp_path)["scripts"] == 1
    for name in ("x", "y"):
        head = (page.parent / f"{name}.html").read_text().split("</head>")[0]
        joined = re.search(r'<script src="(_static/book-[0-9a-f]{12}\.js)"></script>\n'
                           rf"<script>DOCUMENTATION_OPTIONS.pagename = '{name}';</script>\n", head)
        assert joined and (page.parent / joined.group(1)).read_text() == (
            '/* _static/documentation_options.js */\n"use strict";\nconst DOCUMENTATION_OPTIONS = {};\n;\n'
            "/* inline */\nvar shared = 1;\n;\n/* _static/late.js */\ndocument.body.classList.add('from-script')\n;\n")
