"""Parse-mode handling like the Bot API: marked-up text in, (plain text, entities) out.

Telegram strips the markup, returns the plain text plus ``MessageEntity`` dicts, and refuses
malformed markup with 400 "Bad Request: can't parse entities: …". Doing the same here makes an
unescaped ``<`` in a player's name, or an unescaped ``.`` in MarkdownV2, fail in tests the way it
would fail in production. The parsers follow tdlib's rules closely enough for bot testing; they
are not a byte-exact copy (error texts after the common prefix differ).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ApiError

PARSE_ERROR = "Bad Request: can't parse entities: "

_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ATTR = re.compile(r"""\s*([a-zA-Z-]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Bot API entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _fail(detail: str) -> ApiError:
    return ApiError(400, PARSE_ERROR + detail)


@dataclass
class _Builder:
    """Accumulates plain text and open/closed entities with UTF-16 offsets."""

    source: str
    parts: list[str] = field(default_factory=list)
    length: int = 0
    entities: list[dict] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.length += utf16_len(text)

    def close(self, kind: str, start: int, extra: dict | None = None) -> None:
        if kind and self.length > start:  # Telegram drops empty entities
            entity = {"type": kind, "offset": start, "length": self.length - start}
            entity.update(extra or {})
            self.entities.append(entity)

    def byte_offset(self, index: int) -> int:
        return len(self.source[:index].encode())

    def result(self) -> tuple[str, list[dict]]:
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.parts), self.entities


def parse(text: str, parse_mode: str | None, entities: list[dict] | None) -> tuple[str, list[dict]]:
    """Return (plain text, entities) for a text or caption, or raise ApiError(400)."""
    if not parse_mode:
        return text, list(entities or [])
    mode = parse_mode.lower()
    if mode == "html":
        return parse_html(text)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown(text)
    raise ApiError(400, f"Bad Request: unsupported parse_mode {parse_mode!r}")


def parse_html(text: str) -> tuple[str, list[dict]]:
    b = _Builder(text)
    stack: list[tuple[str, str, int, dict]] = []  # (tag, entity type, start, extra)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "&":
            i = _html_entity(text, i, b)
            continue
        if c != "<":
            b.add(c)
            i += 1
            continue
        end = text.find(">", i)
        if end < 0:
            raise _fail(f"Unclosed start tag at byte offset {b.byte_offset(i)}")
        inner = text[i + 1 : end]
        if inner.startswith("/"):
            name = inner[1:].strip().lower()
            if not stack:
                raise _fail(f'Unexpected end tag at byte offset {b.byte_offset(i)}')
            tag, kind, start, extra = stack.pop()
            if name and name != tag:
                raise _fail(f'Can\'t find end tag corresponding to start tag "{tag}"')
            b.close(kind, start, extra)
        else:
            stack.append(_html_start_tag(inner, b.byte_offset(i), b.length, stack))
        i = end + 1
    if stack:
        raise _fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    return b.result()


def _html_entity(text: str, i: int, b: _Builder) -> int:
    """Decode the entity at text[i] == '&'; unknown ones stay literal, as in Telegram."""
    m = re.match(r"&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);", text[i:])
    if m:
        name = m.group(1)
        if name.startswith("#x"):
            b.add(chr(int(name[2:], 16)))
            return i + m.end()
        if name.startswith("#"):
            b.add(chr(int(name[1:])))
            return i + m.end()
        if name in _NAMED_ENTITIES:
            b.add(_NAMED_ENTITIES[name])
            return i + m.end()
    b.add("&")
    return i + 1


def _html_start_tag(
    inner: str, byte_offset: int, start: int, stack: list[tuple[str, str, int, dict]]
) -> tuple[str, str, int, dict]:
    m = re.match(r"([a-zA-Z][a-zA-Z0-9-]*)", inner)
    if not m:
        raise _fail(f"Empty tag name at byte offset {byte_offset}")
    tag = m.group(1).lower()
    if tag not in _HTML_TAGS:
        raise _fail(f'Unsupported start tag "{tag}" at byte offset {byte_offset}')
    attrs = {
        a.group(1).lower(): a.group(2) or a.group(3) or a.group(4) or ""
        for a in _ATTR.finditer(inner[m.end() :].rstrip("/"))
        if a.group(1)
    }
    kind, extra = _HTML_TAGS[tag], {}
    if tag == "span" and attrs.get("class") != "tg-spoiler":
        raise _fail(f'Tag "span" must have class "tg-spoiler" at byte offset {byte_offset}')
    if tag == "a":
        href = attrs.get("href", "")
        if href.startswith("tg://user?id="):
            kind, extra = "text_mention", {"user": {"id": int(href.split("=", 1)[1])}}
        else:
            extra = {"url": href}
    if tag == "code" and stack and stack[-1][0] == "pre":
        # <pre><code class="language-x"> is one pre entity carrying a language
        kind = ""
        lang = attrs.get("class", "")
        if lang.startswith("language-"):
            stack[-1][3]["language"] = lang.removeprefix("language-")
    if tag == "blockquote" and "expandable" in attrs:
        kind = "expandable_blockquote"
    if tag == "tg-emoji":
        extra = {"custom_emoji_id": attrs.get("emoji-id", "")}
    return tag, kind, start, extra


_MDV2_MARKERS = {"*": "bold", "_": "italic", "__": "underline", "~": "strikethrough",
                 "||": "spoiler"}


def parse_markdown_v2(text: str) -> tuple[str, list[dict]]:
    b = _Builder(text)
    stack: list[tuple[str, int, int]] = []  # (entity type, start, source index)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and 0 < ord(text[i + 1]) <= 126:
            b.add(text[i + 1])
            i += 2
            continue
        if c == "`":
            i = _mdv2_code(text, i, b)
            continue
        marker = text[i : i + 2] if text[i : i + 2] in ("__", "||") else c
        if marker in _MDV2_MARKERS:
            kind = _MDV2_MARKERS[marker]
            if stack and stack[-1][0] == kind:
                _, start, _ = stack.pop()
                b.close(kind, start)
            elif any(entry[0] == kind for entry in stack):
                raise _fail(f"Can't find end of {kind} entity at byte offset {b.byte_offset(i)}")
            else:
                stack.append((kind, b.length, i))
            i += len(marker)
            continue
        if c == "[":
            stack.append(("text_link", b.length, i))
            i += 1
            continue
        if c == "]" and stack and stack[-1][0] == "text_link":
            _, start, _ = stack.pop()
            m = re.match(r"\(((?:\\.|[^\\)])*)\)", text[i + 1 :])
            if not m:
                raise _fail(f"Can't find end of a URL at byte offset {b.byte_offset(i)}")
            b.close("text_link", start, {"url": re.sub(r"\\(.)", r"\1", m.group(1))})
            i += 1 + m.end()
            continue
        if c == ">" and (i == 0 or text[i - 1] == "\n"):
            i = _mdv2_quote_line(text, i, b)
            continue
        if c in _MDV2_RESERVED:
            raise _fail(
                f"Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        b.add(c)
        i += 1
    if stack:
        kind, _, at = stack[-1]
        raise _fail(f"Can't find end of {kind} entity at byte offset {b.byte_offset(at)}")
    return b.result()


def _mdv2_code(text: str, i: int, b: _Builder) -> int:
    """Consume `code` or ```pre``` starting at text[i]; inside, only ` and \\ are special."""
    fence = "```" if text.startswith("```", i) else "`"
    j = i + len(fence)
    language = ""
    if fence == "```":
        nl = text.find("\n", j)
        first_line = text[j:nl] if nl >= 0 else ""
        if nl >= 0 and first_line and " " not in first_line and "`" not in first_line:
            language, j = first_line, nl + 1
    start = b.length
    while j < len(text):
        if text[j] == "\\" and j + 1 < len(text) and text[j + 1] in "`\\":
            b.add(text[j + 1])
            j += 2
        elif text.startswith(fence, j):
            if fence == "`":
                b.close("code", start)
            else:
                b.close("pre", start, {"language": language} if language else None)
            return j + len(fence)
        else:
            b.add(text[j])
            j += 1
    raise _fail(f"Can't find end of {'pre' if fence != '`' else 'code'} entity at byte offset "
                f"{b.byte_offset(i)}")


def _mdv2_quote_line(text: str, i: int, b: _Builder) -> int:
    """A '>' at a line start opens a one-line blockquote; its content is parsed recursively."""
    nl = text.find("\n", i)
    line = text[i + 1 : nl if nl >= 0 else len(text)]
    inner_text, inner_entities = parse_markdown_v2(line)
    start = b.length
    b.add(inner_text)
    for entity in inner_entities:
        b.entities.append({**entity, "offset": entity["offset"] + start})
    b.close("blockquote", start)
    return nl if nl >= 0 else len(text)


_MD1 = {"*": "bold", "_": "italic"}


def parse_markdown(text: str) -> tuple[str, list[dict]]:
    """Legacy Markdown: *bold*, _italic_, `code`, ```pre```, [text](url); no nesting."""
    b = _Builder(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in "_*`[":
            b.add(text[i + 1])
            i += 2
        elif c in _MD1 or c == "`":
            fence = "```" if text.startswith("```", i) else c
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise _fail(
                    f"Can't find end of the entity starting at byte offset {b.byte_offset(i)}"
                )
            start = b.length
            b.add(text[i + len(fence) : end])
            b.close(_MD1.get(c, "pre" if fence == "```" else "code"), start)
            i = end + len(fence)
        elif c == "[":
            m = re.match(r"\[([^\]]*)\]\(([^)]*)\)", text[i:])
            if not m:
                raise _fail(
                    f"Can't find end of the entity starting at byte offset {b.byte_offset(i)}"
                )
            start = b.length
            b.add(m.group(1))
            b.close("text_link", start, {"url": m.group(2)})
            i += m.end()
        else:
            b.add(c)
            i += 1
    return b.result()
