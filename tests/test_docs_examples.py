"""The examples of README.md, sdk/README.md and docs/*.md do what they say, against a running
service: every `curl` is sent and its documented answer compared, every SDK snippet is run and its
printed output compared, every `rulehouse simulate` run, and every signature in the SDK's
reference is the code's. In a documented answer `...` stands for any value, more keys or more
list items."""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import itertools
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "sdk") not in sys.path:
    sys.path.insert(0, str(ROOT / "sdk"))

from rulehouse_sdk import Client  # noqa: E402

from tests.sdk.conftest import serving  # noqa: E402

DOCUMENTS = [ROOT / "README.md", ROOT / "sdk" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOCUMENTED_HOST = "localhost:8000"
DOCUMENTED_URL = "http://127.0.0.1:8000"
ANY = "..."


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced code block, in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def document_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


# -- documented JSON with `...` ---------------------------------------------------------


def parse_documented_json(text: str):
    """JSON in which a bare `...` is any value (`"...": "..."` before a `}`: more keys allowed)."""
    out, in_string, escaped, i = [], False, False, 0
    while i < len(text):
        char = text[i]
        if in_string:
            escaped = char == "\\" and not escaped
            in_string = not (char == '"' and not escaped)
            out.append(char)
        elif char == '"':
            in_string, escaped = True, False
            out.append(char)
        elif text.startswith("...", i):
            following = text[i + 3:].lstrip()[:1]
            out.append('"...": "..."' if following == "}" else '"..."')
            i += 3
            continue
        else:
            out.append(char)
        i += 1
    return json.loads("".join(out))


def matches(documented, actual) -> bool:
    if documented == ANY:
        return True
    if isinstance(documented, dict):
        if not isinstance(actual, dict):
            return False
        keys = set(documented) - {ANY}
        if not (keys <= set(actual) if ANY in documented else keys == set(actual)):
            return False
        return all(matches(documented[key], actual[key]) for key in keys)
    if isinstance(documented, list):
        if not isinstance(actual, list):
            return False
        if documented and documented[-1] == ANY:  # these items, in this order, among others
            remaining = iter(actual)
            return all(any(matches(item, candidate) for candidate in remaining) for item in documented[:-1])
        return len(documented) == len(actual) and all(map(matches, documented, actual))
    return documented == actual and type(documented) is type(actual)


def test_documented_json_matching():
    doc = parse_documented_json('{"a": 1, "b": "...", "c": {...}, "d": [{"e": 2}, ...], ...}')
    assert matches(doc, {"a": 1, "b": "x", "c": {"y": 1}, "d": [{"e": 1}, {"e": 2}], "z": 0})
    assert not matches(doc, {"a": 2, "b": "x", "c": {}, "d": [{"e": 2}]})
    assert not matches(parse_documented_json('{"a": 1}'), {"a": 1, "b": 2})
    assert not matches(parse_documented_json('[1, 2]'), [1, 2, 3])
    assert not matches(parse_documented_json('{"a": 1}'), {"a": True})


# -- curl examples ------------------------------------------------------------------


class CurlExample:
    def __init__(self, command: str, status: int | None, answer: str) -> None:
        self.command, self.status, self.answer = command, status, answer

    def __repr__(self) -> str:
        return self.command.splitlines()[0]


def curl_examples(block: str) -> list[CurlExample]:
    """Each `curl` command of a shell block, with the `# <status>` and `# {json}` lines under it."""
    examples: list[CurlExample] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("curl "):
            i += 1
            continue
        command = line
        while command.endswith("\\") or _unclosed(command):
            i += 1
            command = (command[:-1] if command.endswith("\\") else command + "\n") + lines[i]
        i += 1
        status, answer = None, []
        while i < len(lines) and lines[i].startswith("#") and not re.match(r"^# \d+\. ", lines[i]):
            found = re.match(r"^# (\d{3})\b", lines[i])
            if found and status is None and not answer:
                status = int(found.group(1))
            else:
                answer.append(lines[i][1:])
            i += 1
        examples.append(CurlExample(command, status, "\n".join(answer).strip()))
    return examples


def _unclosed(command: str) -> bool:
    try:
        shlex.split(command, comments=True)
    except ValueError:
        return True
    return False


def send(session: requests.Session, base_url: str, example: CurlExample, variables: dict[str, str]):
    words = shlex.split(example.command, comments=True)[1:]
    method, headers, body, url = None, {}, None, None
    words = iter(words)
    for word in words:
        if word == "-X":
            method = next(words)
        elif word == "-H":
            name, value = next(words).split(":", 1)
            headers[name.strip()] = value.strip()
        elif word == "-d":
            body = next(words)
        elif word.startswith("-"):
            continue
        else:
            url = word

    def substitute(text: str) -> str:
        return re.sub(r"\$([A-Z_]+)", lambda found: variables[found.group(1)], text)

    assert url and url.startswith(DOCUMENTED_HOST), example
    url = base_url + substitute(url[len(DOCUMENTED_HOST):])
    headers = {name: substitute(value) for name, value in headers.items()}
    method = method or ("POST" if body is not None else "GET")
    return session.request(method, url, headers=headers, data=body.encode() if body else None, timeout=30)


@pytest.fixture
def service_url(redis_db_url):
    with serving({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "STREAM_KEEPALIVE_SECONDS": 0.1,
                  "STREAM_MAX_SECONDS": 0.5}) as url:
        yield url


def documents_with_curl() -> list[Path]:
    return [path for path in DOCUMENTS if any(curl_examples(body) for lang, body in fenced_blocks(path.read_text())
                                              if lang == "sh")]


def test_the_http_guide_has_examples():
    assert ROOT / "docs" / "http-api.md" in documents_with_curl()


@pytest.mark.parametrize("document", documents_with_curl(), ids=document_id)
def test_every_curl_example_gets_the_documented_answer(service_url, document):
    variables: dict[str, str] = {}
    checked = 0
    with requests.Session() as session:
        for lang, block in fenced_blocks(document.read_text()):
            if lang != "sh":
                continue
            for example in curl_examples(block):
                reply = send(session, service_url, example, variables)
                if example.status is not None:
                    assert reply.status_code == example.status, (example, reply.status_code, reply.text)
                else:
                    assert reply.status_code < 400, (example, reply.status_code, reply.text)
                if example.answer:
                    documented = parse_documented_json(example.answer)
                    assert matches(documented, reply.json()), (example, reply.json())
                    checked += 1
                if reply.status_code == 202 and "/v1/simulations" in example.command:
                    variables["SIM"] = reply.json()["id"]
                if reply.status_code == 202 and "/v1/experiments" in example.command:
                    variables["EXP"] = reply.json()["id"]
                if reply.status_code == 201 and "creator_token" in reply.json():  # a game was created
                    created = reply.json()
                    variables.update(ID=created["id"], CREATOR=created["creator_token"])
                    variables.update({seat["name"].upper(): seat["token"]
                                      for seat in created["seats"] if seat["token"]})
    assert checked


# -- SDK snippets and command lines with their output -----------------------------------


def outputs_of(lang: str, marker: str) -> list[tuple[Path, str, str]]:
    """(document, code, documented output) for each `lang` block containing ``marker`` that a
    ```text block follows."""
    found = []
    for path in DOCUMENTS:
        blocks = fenced_blocks(path.read_text())
        for (kind, code), (next_kind, output) in itertools.pairwise(blocks):
            if kind == lang and marker in code and next_kind == "text":
                found.append((path, code, output))
    return found


def same_lines(documented: str, actual: str) -> bool:
    """Line by line; `...` in a documented line stands for anything."""
    documented_lines, actual_lines = documented.strip().splitlines(), actual.strip().splitlines()
    return len(documented_lines) == len(actual_lines) and all(
        re.fullmatch(".*".join(map(re.escape, want.split(ANY))), got)
        for want, got in zip(documented_lines, actual_lines, strict=True))


SNIPPETS = outputs_of("python", f'Client("{DOCUMENTED_URL}")')


def test_the_readmes_have_sdk_snippets_with_output():
    assert {path.name for path, _, _ in SNIPPETS} == {"README.md"} and len(SNIPPETS) >= 3
    assert any("AsyncClient(" in code for _, code, _ in SNIPPETS)


@pytest.mark.parametrize(("document", "code", "output"), SNIPPETS, ids=[document_id(p) for p, _, _ in SNIPPETS])
def test_every_sdk_snippet_prints_what_the_docs_say(service_url, document, code, output):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(DOCUMENTED_URL, service_url), str(document), "exec"), {})
    assert same_lines(output, printed.getvalue()), printed.getvalue()


COMMANDS = outputs_of("sh", "rulehouse simulate")


def test_the_readme_has_a_simulation_with_output():
    assert COMMANDS


@pytest.mark.parametrize(("document", "code", "output"), COMMANDS, ids=[document_id(p) for p, _, _ in COMMANDS])
def test_every_documented_simulation_prints_what_the_docs_say(document, code, output, capsys):
    from api.cli import main

    command = next(line for line in code.splitlines() if "rulehouse simulate" in line)
    assert main(shlex.split(command, comments=True)[1:]) == 0
    assert same_lines(output, capsys.readouterr().out)


# -- the SDK reference ------------------------------------------------------------------


#: calls the README shows that are not the client's: the callback a caller writes
NOT_METHODS = {"progress"}


def documented_signatures() -> list[str]:
    text = (ROOT / "sdk" / "README.md").read_text()
    calls = re.findall(r"`((?:Client|[a-z_]+)\([^`]*\))`", text)
    return [call for call in calls if call.split("(", 1)[0] not in NOT_METHODS]


def check_signature(documented: str) -> None:
    name = documented.split("(", 1)[0]
    function = Client.__init__ if name == "Client" else getattr(Client, name, None)
    assert callable(function), f"sdk/README.md documents {name}, which Client does not have"
    arguments = ast.parse(f"def f({documented.split('(', 1)[1][:-1]}): pass").body[0].args
    parameters = list(inspect.signature(function).parameters.values())[1:]
    positional = [p for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    keyword_only = [p for p in parameters if p.kind is p.KEYWORD_ONLY]
    assert [a.arg for a in arguments.args] == [p.name for p in positional], documented
    assert [a.arg for a in arguments.kwonlyargs] == [p.name for p in keyword_only], documented
    defaults = [*[None] * (len(arguments.args) - len(arguments.defaults)), *arguments.defaults,
                *arguments.kw_defaults]
    for parameter, default in zip(positional + keyword_only, defaults, strict=True):
        expected = parameter.default
        if expected is inspect.Parameter.empty:
            assert default is None, f"{documented}: {parameter.name} has no default"
        else:
            assert default is not None and ast.literal_eval(default) == expected, f"{documented}: {parameter.name}"


def test_every_signature_in_the_sdk_readme_is_the_code():
    signatures = documented_signatures()
    assert len(signatures) >= 15
    for documented in signatures:
        check_signature(documented)
    named = {signature.split("(", 1)[0] for signature in signatures}
    operations = {name for name, member in inspect.getmembers(Client, inspect.isfunction)
                  if not name.startswith("_") and name not in ("close",)}
    assert operations <= named | {"with_token"}, operations - named
