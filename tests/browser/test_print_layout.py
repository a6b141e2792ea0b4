"""The printed report (`facility check -o report.pdf`), page by page, in en and zh-CN, A4 and Letter.

Run with ``uv run pytest -m browser``. Two sites: Hall B3, and a GB300 pod whose rack type
takes the catalog's flow table (five points: the widest value an equipment table holds, which
used to push the Confidence column and its ASSUMPTION badge over the page edge). Each PDF is
checked for

- its page size (pdfinfo): A4 595 × 842 pt, Letter 612 × 792 pt;
- the running header (site, input hash) and the 'n / N' footer on every page (pdftotext);
- nothing clipped: every word on every page lies within the printable width (pdftotext
  -bbox-layout), the badges and the Confidence headings print whole (as many as the HTML has),
  and the three sign-off boxes show all six vertical borders inside the printable area
  (pixels of the page, rasterised by pdftoppm).

The PDFs and a PNG of every equipment and sign-off page are kept in /tmp/facility-screenshots/
for a person to look at.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from tests.browser.test_html_in_chromium import EXAMPLES, GENERATED_AT, chromium

pytestmark = pytest.mark.browser

KEEP = Path("/tmp/facility-screenshots")
MM = 72 / 25.4  # pt per mm
MARGIN_X = 14 * MM  # @page margin, left and right: 39.7 pt
SLACK = 1.0  # pt: glyph side bearings and sub-pixel layout
# pdfinfo's page sizes: A4 is 210 × 297 mm = 595.3 × 841.9 pt (Chromium: 594.96 × 841.92);
# Letter is 8.5 × 11 in = 612 × 792 pt.
SIZES = {"a4": (595.0, 842.0), "letter": (612.0, 792.0)}
DPI = 100


def run(*command: str) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def gb300_catalog_site(folder: Path) -> Path:
    """The small pod with its rack type's flow table and design flow from the catalog
    (gb300-nvl72: five points, 25 °C … 45 °C), instead of the site's 'null' overrides."""
    text = (EXAMPLES / "small-ready.yaml").read_text(encoding="utf-8")
    kept = [
        line
        for line in text.splitlines()
        if not re.match(r"\s+(flow_table|design_flow): null", line)
    ]
    assert len(kept) == len(text.splitlines()) - 2, "small-ready.yaml overrides both, once each"
    site = folder / "gb300-catalog.yaml"
    site.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return site


@dataclass
class Printed:
    site: Path
    lang: str
    paper: str
    html: str
    pdf: Path

    @cached_property
    def pages(self) -> list[str]:
        count = int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", str(self.pdf))).group(1))
        return [
            run("pdftotext", "-layout", "-f", str(n), "-l", str(n), str(self.pdf), "-")
            for n in range(1, count + 1)
        ]


CASES = [
    (site, lang, paper)
    for site in ("hall-b3", "gb300-catalog")
    for lang in ("en", "zh-CN")
    for paper in ("a4", "letter")
]


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], Printed]:
    chromium()  # fails with how to install it when it is missing
    work = tmp_path_factory.mktemp("print")
    sites = {"hall-b3": EXAMPLES / "hall-b3.yaml", "gb300-catalog": gb300_catalog_site(work)}
    KEEP.mkdir(exist_ok=True)
    done = {}
    for name, lang, paper in CASES:
        stem = f"{name}.{lang}.{paper}"
        html, pdf = work / f"{stem}.html", work / f"{stem}.pdf"
        result = CliRunner().invoke(
            app,
            ["check", str(sites[name]), "-o", str(html), "-o", str(pdf), "--lang", lang,
             "--paper", paper, "--generated-at", GENERATED_AT],
        )  # fmt: skip
        assert result.exit_code in (0, 1), result.output
        shutil.copy(pdf, KEEP / pdf.name)
        done[(name, lang, paper)] = Printed(
            sites[name], lang, paper, html.read_text(encoding="utf-8"), pdf
        )
    return done


def test_the_gb300_site_really_uses_the_catalog_flow_table(printed) -> None:
    html = printed[("gb300-catalog", "en", "a4")].html
    row = re.search(r'<th scope="row">flow table</th>(.*?)</tr>', html, re.S)
    assert row is not None and "catalog gb300-nvl72" in row.group(1)
    assert "45.0\u00a0°C:\u00a0177\u00a0L/min" in row.group(1)  # the fifth point, kept whole


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join(c))
def test_page_size_follows_the_paper_option(printed, case) -> None:
    info = run("pdfinfo", str(printed[case].pdf))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    expected = SIZES[case[2]]
    assert abs(width - expected[0]) < 1 and abs(height - expected[1]) < 1, info


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join(c))
def test_every_page_has_the_running_header_and_page_n_of_m(printed, case) -> None:
    report = printed[case]
    sha = hashlib.sha256(report.site.read_bytes()).hexdigest()
    name = "Hall B3" if case[0] == "hall-b3" else "Small pod R1"
    pages = report.pages
    assert len(pages) > 5
    for n, text in enumerate(pages, start=1):
        lines = [line for line in text.splitlines() if line.strip()]
        assert name in lines[0] and f"SHA-256 {sha[:16]}" in lines[0], (n, lines[0])
        assert lines[-1].rstrip().endswith(f"{n} / {len(pages)}"), (n, lines[-1])
        assert GENERATED_AT in lines[-1], (n, lines[-1])  # tool and time, bottom left


@cache
def words(pdf: Path) -> list[tuple[int, float, float, float, float, str]]:
    """Every word of ``pdf``: (page, xMin, yMin, xMax, yMax, text), in pt from the top left."""
    found = []
    page = 0
    for line in run("pdftotext", "-bbox-layout", str(pdf), "-").splitlines():
        if "<page " in line:
            page += 1
        m = re.search(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)</word>',
            line,
        )
        if m:
            found.append((page, *map(float, m.groups()[:4]), m.group(5)))
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join(c))
def test_no_word_leaves_the_printable_width(printed, case) -> None:
    """A clipped cell shows as a word that reaches past the margin ('CONFID', 'ASSUM' at
    560 pt on A4, whose printable width ends at 595 − 39.7 = 555.3 pt)."""
    width = SIZES[case[2]][0]
    outside = [
        w for w in words(printed[case].pdf)
        if w[3] > width - MARGIN_X + SLACK or w[1] < MARGIN_X - SLACK
    ]  # fmt: skip
    assert outside == [], outside[:10]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join(c))
def test_every_badge_and_confidence_heading_prints_whole(printed, case) -> None:
    report = printed[case]
    badges = re.findall(r'<span class="badge assumption">([^<]+)</span>', report.html)
    tables = report.html.count('<table class="figures">')
    assert tables >= 3 and badges, "every site here has equipment tables and an assumption"
    head = re.search(r'<table class="figures">.*?</thead>', report.html, re.S).group(0)
    heading = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', head)[4]  # Confidence
    text = "\n".join(report.pages)
    if report.lang == "en":
        found = [w[5] for w in words(report.pdf)]
        assert found.count("ASSUMPTION") == len(badges)  # text-transform: only badges shout
        assert found.count(heading.upper()) >= tables  # a table over two pages repeats it
    else:
        assert text.count(badges[0]) >= len(badges)
        assert text.count(heading) >= tables


def vertical_borders(pdf: Path, page: int, top: float, bottom: float) -> list[float]:
    """The x (pt) of every vertical line drawn all the way from ``top`` to ``bottom`` (pt) on
    ``page``: columns of pixels none of which is white, grouped when adjacent."""
    prefix = pdf.with_name(f"{pdf.stem}-p{page}")
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(DPI), "-f", str(page), "-l", str(page), "-singlefile",
         str(pdf), str(prefix)], check=True)  # fmt: skip
    data = Path(f"{prefix}.pgm").read_bytes()
    magic, size, _depth, pixels = data.split(b"\n", 3)
    assert magic == b"P5"
    width, _height = map(int, size.split())
    rows = range(round(top * DPI / 72), round(bottom * DPI / 72))
    columns = [x for x in range(width) if all(pixels[y * width + x] < 245 for y in rows)]
    lines: list[list[int]] = []
    for x in columns:
        if lines and x - lines[-1][-1] <= 1:
            lines[-1].append(x)
        else:
            lines.append([x])
    return [sum(line) / len(line) * 72 / DPI for line in lines]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ".".join(c))
def test_the_three_sign_off_boxes_have_all_their_borders_inside_the_page(printed, case) -> None:
    report = printed[case]
    roles = re.findall(r'<div class="signoff-role">\s*<h3>([^<]+)</h3>', report.html)
    assert len(roles) == 3
    first = roles[0].split()[0]
    page, _x0, _y0, _x1, y1, _t = [w for w in words(report.pdf) if w[5] == first][-1]
    pages = report.pages
    assert all(role in pages[page - 1] for role in roles), "the three boxes are on one page"
    borders = vertical_borders(report.pdf, page, y1 + 4, y1 + 50)
    width = SIZES[case[2]][0]
    assert len(borders) == 6, borders  # left and right of each box
    # The third box's right border at least 1 pt inside the printable edge (a pixel is 0.72 pt
    # at 100 dpi): on the edge it is clipped on some pages and not on others.
    assert borders[0] >= MARGIN_X - SLACK and borders[-1] <= width - MARGIN_X - SLACK, borders
    png = KEEP / f"{report.pdf.stem}-signoff"
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page),
                    "-singlefile", str(report.pdf), str(png)], check=True)  # fmt: skip
