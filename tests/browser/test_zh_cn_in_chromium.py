"""The Chinese HTML report in a real headless Chromium, with Debian's CJK fonts (fonts-noto-cjk).

Run with ``uv run pytest -m browser``. Chromium renders Hall B3 in zh-CN with no network; the
screenshot and the printed PDF are kept in /tmp/facility-screenshots/ for a person to look at.
No tofu: the PDF embeds a CJK font, and that font has a glyph for every character of the page.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from tests.browser.test_html_in_chromium import assert_offline, render, run_chromium

pytestmark = pytest.mark.browser

KEEP = Path("/tmp/facility-screenshots")
CJK_FONT = "Noto Sans CJK SC"  # fonts-noto-cjk; the report's zh-CN font stack names it first
TERMS = ("就绪评估报告", "未就绪", "冷量分配单元", "二次侧冷却回路", "机柜 PDU", "一路失电",
         "逼近温度", "均布荷载", "裕量", "编制", "审核", "批准")  # fmt: skip
WIDE = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")


def run(*command: str) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def hall_b3_zh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if CJK_FONT not in run("fc-list", ":lang=zh-cn", "family"):
        pytest.fail(f"{CJK_FONT} is not installed (apt-get install fonts-noto-cjk); see .ci/run")
    return render(tmp_path_factory.mktemp("b3-zh"), "hall-b3.yaml", "--lang", "zh-CN")


@pytest.fixture(scope="module")
def pdf(hall_b3_zh: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("b3-zh-pdf")
    out = work / "hall-b3.zh-CN.pdf"
    stderr, urls = run_chromium(work, hall_b3_zh, f"--print-to-pdf={out}", "--no-pdf-header-footer")
    assert_offline(stderr, urls)
    KEEP.mkdir(exist_ok=True)
    shutil.copy(out, KEEP / out.name)
    return out


def covered(font: str) -> set[int]:
    """The code points ``font`` has glyphs for (fontconfig's charset: '20-7e a0-103 …')."""
    points: set[int] = set()
    for part in run("fc-match", "-f", "%{charset}", font).split():
        low, _, high = part.partition("-")
        points.update(range(int(low, 16), int(high or low, 16) + 1))
    return points


def test_screenshot_of_the_chinese_report(hall_b3_zh: Path, tmp_path: Path) -> None:
    shot = tmp_path / "hall-b3.zh-CN.png"
    stderr, urls = run_chromium(
        tmp_path, hall_b3_zh, f"--screenshot={shot}", "--window-size=1280,2400", "--lang=zh-CN"
    )
    assert_offline(stderr, urls)
    assert shot.stat().st_size > 20_000  # a real page, not a blank one
    KEEP.mkdir(exist_ok=True)
    shutil.copy(shot, KEEP / shot.name)


def font_names(pdf: Path) -> set[str]:
    """The /FontName of every font descriptor in ``pdf``, subset tags removed.

    Chromium (Skia) embeds a CFF-flavoured OpenType font such as Noto Sans CJK as Type 3
    fonts, which pdffonts lists as "[none]": their names are only in the font descriptors,
    which sit in compressed object streams.
    """
    raw = pdf.read_bytes()
    chunks = [raw]
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", raw, re.DOTALL):
        with contextlib.suppress(zlib.error):
            chunks.append(zlib.decompress(match.group(1)))
    names = set()
    for chunk in chunks:
        names.update(
            m.decode() for m in re.findall(rb"/FontName\s*/(?:[A-Z]{6}\+)?([\w.-]+)", chunk)
        )
    return names


def test_the_pdf_embeds_a_cjk_font(pdf: Path) -> None:
    fonts = run("pdffonts", str(pdf)).splitlines()[2:]
    assert fonts, "pdffonts lists no font"
    # name, type…, emb, sub, uni, object id, generation: each font embedded, with its Unicode map
    lacking = [line for line in fonts if not (line.split()[-5] == line.split()[-3] == "yes")]
    assert not lacking, "fonts not embedded or without a Unicode map:\n" + "\n".join(lacking)
    names = font_names(pdf)
    cjk = sorted(n for n in names if "CJK" in n or "SourceHan" in n)
    assert cjk, f"no CJK font embedded; fonts: {sorted(names)}"
    assert any(n.startswith("NotoSansCJKsc") for n in cjk), cjk  # the SC face, not JP/KR/TC


def test_the_pdf_says_it_in_chinese(pdf: Path) -> None:
    info = run("pdfinfo", str(pdf))
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    assert 3 <= pages <= 60, info
    text = run("pdftotext", "-layout", str(pdf), "-")
    missing = [term for term in TERMS if term not in text]
    assert not missing, f"not in the printed report: {missing}"
    import hashlib

    from tests.browser.test_html_in_chromium import EXAMPLES

    signed = hashlib.sha256((EXAMPLES / "hall-b3.yaml").read_bytes()).hexdigest()[:12]
    for failing in ("A01", "B12", "TCS-A", "TCS-B", signed):
        assert failing in text


def test_no_tofu_every_chinese_character_has_a_glyph(pdf: Path, hall_b3_zh: Path) -> None:
    """Every wide character of the page and of the PDF's text is in the CJK font Chromium used."""
    glyphs = covered(CJK_FONT)
    page = hall_b3_zh.read_text(encoding="utf-8")
    printed = run("pdftotext", str(pdf), "-")
    wide = set(WIDE.findall(page)) | set(WIDE.findall(printed))
    assert len(wide) > 200, "the page has hardly any Chinese"
    lacking = sorted(c for c in wide if ord(c) not in glyphs)
    assert not lacking, f"{CJK_FONT} has no glyph for {lacking}"
    assert "\ufffd" not in printed, "a replacement character in the printed text"


def test_every_chinese_page_has_the_running_header_footer_and_page_number(pdf: Path) -> None:
    import hashlib

    from tests.browser.test_html_in_chromium import EXAMPLES, assert_running_header_and_footer

    sha = hashlib.sha256((EXAMPLES / "hall-b3.yaml").read_bytes()).hexdigest()
    assert assert_running_header_and_footer(pdf, "Hall B3", sha) > 5
