"""The record's JSON Schema (docs/record.schema.json), checked by the jsonschema library."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from callbench.errors import RunError
from callbench.paths import DOCS
from callbench.records.record import READABLE_VERSIONS, SCHEMA_VERSION

SCHEMA_FILE = DOCS / "record.schema.json"


class RecordError(RunError):
    """A record that does not follow the schema."""


class SchemaVersionError(RecordError):
    """A record written by another version of callbench."""


@cache
def validator(schema_file: Path = SCHEMA_FILE) -> jsonschema.protocols.Validator:
    """A checked validator for one of docs/'s schemas (the record's by default)."""
    schema = json.loads(schema_file.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _versions() -> str:
    return " or ".join(map(str, READABLE_VERSIONS)) + f" (writes {SCHEMA_VERSION})"


def problems(data: Any) -> list[str]:
    """What is wrong with ``data`` as a record, empty when it is well formed."""
    if isinstance(data, dict) and data.get("schema") not in READABLE_VERSIONS:
        return [f"schema version {data.get('schema')!r}; this callbench reads {_versions()}"]
    found = sorted(validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(record)'}: {e.message}" for e in found]


def check(data: Any, where: str) -> None:
    """Raise RecordError (SchemaVersionError for another version) naming ``where``."""
    if isinstance(data, dict) and data.get("schema") not in READABLE_VERSIONS:
        raise SchemaVersionError(
            f"{where}: record schema version {data.get('schema')!r}, "
            f"this callbench reads version {_versions()}"
        )
    found = problems(data)
    if found:
        raise RecordError(f"{where}: invalid record: {found[0]}")
