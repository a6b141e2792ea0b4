"""Document control in the reports: the cover, the sign-off (signers by discipline, every
input file with its SHA-256) and each printed page's running header and footer."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from facility.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = """\
site:
  name: Small pod R1
  document:
    number: DC-R1-RR-007
    revision: B
    status: for-review
    organisation: Example Engineering "Ltd" </style>
    prepared_by: A. Ortiz
    checked_by: M. Lee
    revisions:
      - {revision: A, date: 2026-10-01, description: First issue for comment, by: A. Ortiz}
      - {revision: B, date: 2026-11-20, description: Second CDU and its water loop}
    signers:
      - {discipline: electrical, name: J. Okafor, role: Electrical lead}
      - {discipline: mechanical, name: M. Lee}
      - {discipline: structural, name: R. Chen, organisation: Chen Structures}
"""


def with_document(tmp_path: Path) -> Path:
    """small-ready.yaml with document control in place of its site block."""
    text = ROOT.joinpath("examples", "small-ready.yaml").read_text(encoding="utf-8")
    site_block = re.search(r"^site:\n(?:  .*\n)+", text, re.M)
    assert site_block
    path = tmp_path / "pod.yaml"
    ambient = re.search(r"^  design_ambient: .*\n", site_block.group(0), re.M)
    block = DOCUMENT + (ambient.group(0) if ambient else "")  # the plant is judged at it
    path.write_text(text.replace(site_block.group(0), block), encoding="utf-8")
    return path


def render(tmp_path: Path, *outputs: str) -> list[str]:
    site = with_document(tmp_path)
    paths = [tmp_path / name for name in outputs]
    args = ["check", str(site), "--generated-at", "2026-11-29T12:00:00+00:00"]
    for path in paths:
        args += ["-o", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return [p.read_text(encoding="utf-8") for p in paths]


def test_cover_sign_off_and_print_header_carry_the_document_control(tmp_path: Path) -> None:
    html, md = render(tmp_path, "r.html", "r.md")
    for text in (html, md):
        for fact in ("DC-R1-RR-007", "For review", "A. Ortiz", "Second CDU and its water loop"):
            assert fact in text
        assert "Prepared by: A. Ortiz" in text and "Reviewed by: M. Lee" in text
        assert "J. Okafor (Electrical lead)" in text and "R. Chen, Chen Structures" in text
        assert "Structural" in text and "Electrical" in text
    # every file that decided the verdict, with its hash: the profile and each rule file
    assert "rules/profiles/supernode.yaml" in html and "rules/power/PWR-001.yaml" in md
    # the running header: number, revision, status; a quote or </style> in any of it cannot
    # end the CSS string or the element (written as CSS escapes)
    style = html[html.index("<style>") : html.index("</style>")]
    assert '@top-left { content: "DC-R1-RR-007, revision B, For review";' in style
    assert "counter(page)" in style and "size: A4" in style
    assert "</style>" not in style[7:] and 'Ltd" ' not in style


def test_without_document_control_the_header_names_the_site(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    site = ROOT / "examples" / "small-ready.yaml"
    result = CliRunner().invoke(app, ["check", str(site), "-o", str(out)])
    assert result.exit_code == 0
    assert '@top-left { content: "Small pod R1";' in out.read_text(encoding="utf-8")


def test_a_hostile_document_number_cannot_leave_the_css_string(tmp_path: Path, monkeypatch) -> None:
    import sys

    hostile = """'X" }</style><script>alert(1)</script>'"""
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "DOCUMENT", DOCUMENT.replace("DC-R1-RR-007", hostile))
    (html,) = render(tmp_path, "r.html")
    style = html[html.index("<style>") + 7 : html.index("</style>")]
    running = style[style.index("@top-left") :].split(";")[0]
    assert "<script>" not in style and '"' not in running.split('"', 1)[1][:-1]
    assert "\\22 " in running and "\\3c /style\\3e " in running
