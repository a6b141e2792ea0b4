"""A small HTML checker for the report tests, on the standard library's html.parser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
SVG_SELF_CLOSING = {"rect", "line", "path", "circle", "stop", "polygon", "polyline"}
_EXTERNAL = re.compile(r"^\s*(https?:|//|ftp:|file:|data:text/html)", re.IGNORECASE)


@dataclass
class Page:
    tags: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    by_id_text: dict[str, str] = field(default_factory=dict)
    unclosed: list[str] = field(default_factory=list)
    mismatched: list[tuple[str, str]] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)

    def links(self) -> list[str]:
        return [a[k] for _, a in self.tags for k in ("href", "src", "xlink:href") if k in a]

    def external_references(self) -> list[str]:
        found = [link for link in self.links() if _EXTERNAL.match(link)]
        for css in [*self.styles, *(a.get("style", "") for _, a in self.tags)]:
            found += re.findall(r"url\(\s*['\"]?\s*(?!#|data:image/)([^)'\"]*)", css)
            found += re.findall(r"@import\s+[^;]+", css)
        return found


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.stack: list[tuple[str, str | None]] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.page.tags.append((tag, attributes))
        if "id" in attributes:
            self.page.ids.append(attributes["id"])
        if tag in VOID:
            return
        self.stack.append((tag, attributes.get("id")))
        self.in_style = tag == "style"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.page.tags.append((tag, attributes))
        if "id" in attributes:
            self.page.ids.append(attributes["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.page.mismatched.append((tag, self.stack[-1][0] if self.stack else ""))
            return
        self.stack.pop()
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if self.in_style:
            self.page.styles.append(data)
            return
        self.page.text.append(data)
        for _tag, element_id in self.stack:
            if element_id:
                self.page.by_id_text[element_id] = self.page.by_id_text.get(element_id, "") + data


def parse(html: str) -> Page:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    parser.page.unclosed = [tag for tag, _ in parser.stack]
    return parser.page
