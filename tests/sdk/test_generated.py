"""The generated operation layer matches openapi.yaml: not stale, one method per operation and back."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import rulehouse_sdk
import yaml
from rulehouse_sdk import OPERATIONS, Client, Operations

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "sdk" / "rulehouse_sdk" / "_generated.py"


def generator():
    spec = importlib.util.spec_from_file_location("sdk_generate", ROOT / "sdk" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def spec_operations() -> dict[tuple[str, str], dict]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return {(method.upper(), path): operation for path, item in spec["paths"].items()
            for method, operation in item.items() if method in generator().HTTP_METHODS}


def operation_methods() -> dict[str, object]:
    """Public methods of Operations (the generated layer), which must all be operations."""
    return {name: member for name, member in inspect.getmembers(Operations, inspect.isfunction)
            if not name.startswith("_")}


def test_the_committed_module_is_what_the_generator_makes():
    assert GENERATED.read_text() == generator().render(yaml.safe_load((ROOT / "openapi.yaml").read_text())), \
        "sdk/rulehouse_sdk/_generated.py is stale: run `python sdk/generate.py`"
    assert rulehouse_sdk._generated.__file__ == str(GENERATED)


def test_every_operation_of_the_spec_has_a_method():
    for (method, path), _operation in spec_operations().items():
        matching = [op for op in OPERATIONS.values() if (op.method, op.path) == (method, path)]
        assert len(matching) == 1, f"{method} {path} has no method"
        assert matching[0].name in operation_methods()
        assert f"{method} {path}" in inspect.getdoc(getattr(Client, matching[0].name))


def test_every_method_has_an_operation_of_the_spec():
    operations = spec_operations()
    for name, function in operation_methods().items():
        assert name in OPERATIONS, f"{name} names no operation"
        assert (OPERATIONS[name].method, OPERATIONS[name].path) in operations
        assert f"OPERATIONS[{name!r}]" in inspect.getsource(function)


def test_the_operations_the_issue_names_exist():
    for name in ("create_game", "get_game", "get_decisions", "submit_action", "list_events", "stream_events",
                 "list_rulesets", "get_ruleset", "health", "ready"):
        assert callable(getattr(Client, name)), name


def test_path_and_required_parameters_are_positional_and_options_keyword_only():
    signature = inspect.signature(Client.submit_action)
    kinds = {name: parameter.kind for name, parameter in signature.parameters.items()}
    assert kinds["game_id"] == kinds["action"] == inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert kinds["if_match"] == kinds["idempotency_key"] == inspect.Parameter.KEYWORD_ONLY
    assert signature.parameters["if_match"].default is inspect.Parameter.empty
    create = inspect.signature(Client.create_game).parameters
    assert list(create)[:3] == ["self", "ruleset", "seats"] and create["seed"].default is None


def test_an_operation_without_a_name_is_an_error():
    gen = generator()
    spec = {"info": {"title": "t", "version": "1"}, "paths": {"/v1/unknown": {"get": {
        "responses": {"200": {"description": "OK"}}}}}}
    try:
        gen.render(spec)
    except gen.SpecError as error:
        assert "GET /v1/unknown" in str(error)
    else:
        raise AssertionError("an unnamed operation was accepted")
    spec["paths"]["/v1/unknown"]["get"]["operationId"] = "fetchUnknownThing"
    assert "def fetch_unknown_thing(self) -> None:" in gen.render(spec)
