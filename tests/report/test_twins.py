"""The HTML and Markdown reports are twins: every text the HTML report shows is in the Markdown.

Each text node of the HTML page's ``<main>`` (headings, entity ids, rule codes, figures and
their sources, waivers, hashes of every site file, sign-off) must occur in the Markdown once the
Markdown's own escapes and emphasis are read back. The exceptions are what only the picture or
the page has: the SVG charts and floor plan (their figures are tables in both), the contents
list, the verdict's symbol, the "of N checks" tile notes (a Checks column in Markdown), the floor
plan's description of its squares, the passed checks' "open a line" hint and the HTML colophon.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from facility.report.html import render_html
from facility.report.markdown import render_markdown
from tests.report.conftest import ROOT, report_for
from tests.report.test_waivers import WAIVERS

VOID = {"br", "meta", "wbr", "hr", "img", "input", "link", "col"}


def _html_only(stack: list[tuple[str, str, str]]) -> bool:
    """Whether the open elements ``stack`` (tag, classes, id) hold text only the page has."""
    tags = {tag for tag, _classes, _id in stack}
    classes = {c for _tag, names, _id in stack for c in names.split()}
    ids = {element_id for _tag, _classes, element_id in stack if element_id}
    return (
        bool({"svg", "nav", "footer"} & tags)  # the pictures, the contents, the colophon
        or "verdict-mark" in classes
        or ("summary" in ids and "tile-note" in classes)  # "of 446 checks"
        or ("floor-plan" in ids and "figcaption" in tags)  # what the squares mean
        or ("passed" in ids and "area-intro" in classes)  # "open a line to see the entities"
    )


class _Texts(HTMLParser):
    """The text nodes inside ``<main>`` that are not :func:`_html_only`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str, str]] = []  # tag, classes, id
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            a = {k: v or "" for k, v in attrs}
            self.stack.append((tag, a.get("class", ""), a.get("id", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        inside = any(tag == "main" for tag, _classes, _id in self.stack)
        if text and inside and not _html_only(self.stack):
            self.texts.append(text)


def html_texts(page: str) -> list[str]:
    parser = _Texts()
    parser.feed(page)
    parser.close()
    return parser.texts


def markdown_plain(markdown: str) -> str:
    """The Markdown as a reader sees it: escapes and entities undone, emphasis and code marks
    dropped, whitespace collapsed."""
    text = html.unescape(re.sub(r"\\(.)", r"\1", markdown))
    return " ".join(text.replace("**", "").replace("`", "").split())


def missing_from_markdown(report) -> list[str]:
    plain = markdown_plain(render_markdown(report))
    texts = dict.fromkeys(html_texts(render_html(report)))  # in order, once each
    # A label ends in "." in HTML ("Requirement.") and in ":" in Markdown ("Requirement:");
    # in Chinese in "。" and "：".
    return [t for t in texts if t.rstrip(".:。：") not in plain]


@pytest.fixture(scope="module")
def waived_b3(tmp_path_factory):
    directory = tmp_path_factory.mktemp("twins")
    text = (ROOT / "examples" / "hall-b3.yaml").read_text(encoding="utf-8")
    (directory / "hall-b3.yaml").write_text(text + WAIVERS, encoding="utf-8")
    return report_for("hall-b3.yaml", cwd=directory)


@pytest.mark.parametrize("site", ["hall_b3", "small_ready", "waived_b3"])
def test_the_markdown_shows_everything_the_html_shows(site, request):
    report = request.getfixturevalue(site)
    assert missing_from_markdown(report) == []


def test_the_chinese_markdown_shows_everything_the_chinese_html_shows(waived_b3):
    assert missing_from_markdown(replace(waived_b3, lang="zh-CN")) == []


def test_a_layered_site_lists_every_file_and_its_hash_in_both():
    report = report_for("examples/netbox/hall-b3-cooling.yaml")
    assert len(report.site.layers) > 1
    markdown = render_markdown(report)
    sign_off = markdown[markdown.index("\n## Sign-off\n") :]
    for layer in report.site.layers:
        assert f"`{layer.sha256}`" in sign_off
        assert markdown_plain(layer.file) in markdown_plain(sign_off)
    assert missing_from_markdown(report) == []


def test_the_markdown_has_the_html_sections_in_the_same_order(hall_b3):
    page = render_html(hall_b3)
    headings = [
        " ".join(re.sub(r"<[^>]+>", "", h).split())
        for h in re.findall(
            r'<h2[^>]*>(?:<span class="section-number">\d+</span>)?(.*?)</h2>', page
        )
    ]
    markdown = render_markdown(hall_b3)
    assert [h[3:] for h in markdown.splitlines() if h.startswith("## ")] == headings


def test_the_check_itself_notices_a_missing_text(hall_b3):
    """The comparison is not vacuous: a text dropped from the Markdown is reported."""
    plain = markdown_plain(render_markdown(hall_b3)).replace("A07-B3", "")
    texts = html_texts(render_html(hall_b3))
    assert "A07-B3" in texts
    assert [t for t in texts if t == "A07-B3" and t not in plain] == ["A07-B3"]
