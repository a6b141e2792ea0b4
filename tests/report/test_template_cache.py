"""Templates are compiled once per process: a second report compiles none (each compile of
the report templates costs as much as the whole render)."""

from __future__ import annotations

from jinja2 import Environment

from facility.report.templating import environment, render


def test_a_second_render_compiles_no_template(monkeypatch) -> None:
    compiled: list[str] = []
    original = Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(str(name))
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(Environment, "compile", counting)
    assert environment("html", "en") is environment("html", "en")  # one environment
    environment("html", "en").get_template("partials/style.css.j2")
    compiled.clear()
    environment("html", "en").get_template("partials/style.css.j2")
    assert compiled == []
    assert render  # the function every report goes through uses environment()
