"""MkDocs hooks of the documentation site (`mkdocs.yml`, `make docs`): pages made from the
repository's own files, so that nothing on the site is written twice.

- `index.md` is README.md without its two language sections, and `language.md` is those
  sections: the README stays the one text of the tour and of the language reference.
- The JSON events page gets a table of the fields of each event, read from
  `docs/schema/events.json`.
- A link from a page to a file of the repository outside `docs/` (the lemma map's
  `../src/symcert/engine/explore.py#L42`, the README's `contracts/README.md`) works on GitHub as it
  is; on the site it goes to a page `source/<path>.md` generated here, the file's text with one
  anchor `L<n>` per line, so `#L42` lands on the same line as on GitHub.

The links are rewritten before MkDocs validates them, so `mkdocs build --strict` still fails on a
link to a file that does not exist.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File, Files, InclusionLevel

ROOT = Path(__file__).resolve().parents[1]
LANGUAGE = ("The language", "Languages defined by rewrite rules")
"""The README's sections that make the language page; the others make the home page."""
LINK = re.compile(r"(\]\()([^)\s#]+)(#[^)\s]*)?(\))")
"""A Markdown link's target: `](path#anchor)`."""
SCHEMA = "docs/schema/events.json"
FIELDS = "<!-- fields: "
"""The line of docs/json.md after which the tables of the schema's fields go."""


def readme_parts() -> tuple[str, str]:
    """README.md as (home page, language page), split at its `## ` headings."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    chunks = re.split(r"(?m)^(?=## )", text)
    language = [c for c in chunks if c.removeprefix("## ").startswith(LANGUAGE)]
    home = [c for c in chunks if c not in language]
    return "".join(home), "# The language\n\n" + "".join(language).replace("\n## ", "\n# ", 1)


def target_path(target: str, base: str) -> str | None:
    """The repository path a link written in directory `base` points to, if it is a file of
    the repository (not a URL, not an anchor of the same page)."""
    if "://" in target or target.startswith(("mailto:", "/")):
        return None
    path = posixpath.normpath(posixpath.join(base, target))
    return path if not path.startswith("..") and (ROOT / path).is_file() else None


def rewrite(markdown: str, base: str) -> str:
    """The links of a text written in directory `base` (`docs/...`, or `.` for the README) for
    its page on the site, which lives in `docs/` (or in `base` under it): a link into `docs/`
    becomes relative to the page, a link to another file of the repository goes to its source
    page."""
    page_dir = base if base.startswith("docs") else "docs"

    def one(m: re.Match[str]) -> str:
        path = target_path(m.group(2), base)
        if path is None:
            return m.group(0)
        if not path.startswith("docs/"):
            path = f"docs/source/{path}.md"
        return m.group(1) + posixpath.relpath(path, page_dir) + (m.group(3) or "") + m.group(4)

    return LINK.sub(one, markdown)


def source_page(path: str) -> str:
    """The text of `path` as a page, line `n` anchored `L<n>` (highlighted when it is the
    link's target: docs/stylesheets/source.css), left out of the site's search."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    body = "\n".join(f'<span id="L{n}">{html.escape(line)}</span>'
                     for n, line in enumerate(lines, 1))
    return (f"---\nsearch:\n  exclude: true\n---\n\n# `{path}`\n\n"
            f"<pre class=\"source\">{body}</pre>\n")


def linked_files(texts: list[tuple[str, str]]) -> set[str]:
    """The files outside `docs/` that the texts (directory, Markdown) link to."""
    return {path for base, text in texts for m in LINK.finditer(text)
            if (path := target_path(m.group(2), base)) and not path.startswith("docs/")}


def on_files(files: Files, config) -> Files:
    """Add the home page, the language page and a source page per file linked to."""
    home, language = readme_parts()
    texts = [(".", home), (".", language)]
    texts += [(docs_dir(f), Path(f.abs_src_path).read_text(encoding="utf-8"))
              for f in files.documentation_pages() if f.abs_src_path]
    for uri, text in (("index.md", home), ("language.md", language)):
        files.append(File.generated(config, uri, content=rewrite(text, ".")))
    for path in sorted(linked_files(texts)):
        files.append(File.generated(config, f"source/{path}.md", content=source_page(path),
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Point a docs page's links to files outside `docs/` at their source pages."""
    if page.file.abs_src_path is None:  # generated here, already rewritten
        return markdown
    if page.file.src_uri == "json.md":
        head, line, _ = markdown.partition(FIELDS)
        markdown = head + line + "-->\n\n" + schema_tables() if line else markdown
    return rewrite(markdown, docs_dir(page.file))


def docs_dir(file: File) -> str:
    """The repository directory of a page of `docs/`: `docs`, `docs/schema`."""
    return posixpath.join("docs", posixpath.dirname(file.src_uri)).rstrip("/")


def kind(spec: object) -> str:
    """A field's type in words: `integer`, `string or null`, one of the values, a `$defs` name."""
    if spec is True:
        return "any"
    if not isinstance(spec, dict):
        return "?"
    if "$ref" in spec:
        return spec["$ref"].rpartition("/")[2]
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    for key in ("anyOf", "oneOf"):
        if key in spec:
            return " or ".join(kind(s) for s in spec[key])
    types = spec.get("type", "object")
    words = " or ".join(types) if isinstance(types, list) else types
    if words == "array" and "items" in spec:
        words = f"array of {kind(spec['items'])}"
    if words == "object" and isinstance(spec.get("additionalProperties"), dict):
        words = f"object of {kind(spec['additionalProperties'])}"
    return words


def schema_tables() -> str:
    """A table per object of the schema's `$defs` that has properties: field, type, required."""
    schema = json.loads((ROOT / SCHEMA).read_text(encoding="utf-8"))
    defs = schema["$defs"]
    cell = lambda spec: (spec.get("description", "") if isinstance(spec, dict) else ""
                         ).replace("|", "\\|")
    out = []
    for name, spec in defs.items():
        props = {k: v for k, v in spec.get("properties", {}).items()
                 if k not in ("schema", "event")}
        if not props:
            continue
        required = set(spec.get("required", ()))
        out.append(f"### `{name}`\n\n{spec.get('description', '')}\n\n"
                   "| field | type | always there | description |\n|---|---|---|---|")
        out += [f"| `{field}` | {kind(sub)} | {'yes' if field in required else 'no'} | "
                f"{cell(sub)} |" for field, sub in props.items()]
        out.append("")
    out.append("### The types named above\n\n| type | is | description |\n|---|---|---|")
    out += [f"| {name} | {kind(spec)} | "
            f"{cell(spec)} |" for name, spec in defs.items() if "properties" not in spec]
    return "\n".join(out) + "\n"
