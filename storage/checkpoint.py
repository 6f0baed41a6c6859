"""Audit checkpoints: the head of the audit chain, signed, kept outside the database.

Everything inside the database can be rewritten by whoever can write it: the rows, their hashes, the chain
head. A checkpoint is a small JSON file made by `recount-bot audit checkpoint FILE` and kept elsewhere (another
machine, a mail to the governing body, a print-out); `recount-bot audit verify --against FILE` then shows
whether the log still holds the row and hash the checkpoint recorded. A log rewritten up to that row (an
edit, all hashes recomputed) no longer has its hash; a log cut short no longer reaches it.

    {"format": "recount-bot audit checkpoint 1", "last_id": 57, "last_hash": "<sha256 hex>",
     "made_at": "2026-11-05T17:00:00.000000Z", "database": "sqlite:///recount-bot.sqlite3",
     "key_id": "<16 hex>", "hmac_sha256": "<hex>"}

The signature is HMAC-SHA256 over the canonical JSON of every other field, with a key that is not in the
database: the file named by RECOUNT_AUDIT_KEY_FILE (or --key-file), else the RECOUNT_AUDIT_KEY variable (bot/
commands/audit.py reads them). HMAC, not a public-key signature, because the standard library has it and no
signing library is a dependency: whoever verifies holds the key too, so keep it with the checkpoints' keeper
(the designated election official's machine, or the auditor's), not beside DATABASE_URL. `key_id` (a hash of
the key) tells "made with another key" from "altered". The database URL is only informative: a restored
backup verifies against the checkpoints of the original.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from dataclasses import dataclass

FORMAT = "recount-bot audit checkpoint 1"
MIN_KEY_BYTES = 32
_FIELDS = ("format", "last_id", "last_hash", "made_at", "database", "key_id")


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: unreadable, not a checkpoint, made with another key, or altered."""


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"recount-bot audit key id\0" + key).hexdigest()[:16]


def _signature(fields: dict, key: bytes) -> str:
    text = json.dumps({k: fields[k] for k in _FIELDS}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    last_id: int
    last_hash: str
    made_at: str
    database: str

    @property
    def label(self) -> str:
        return f"the checkpoint of {self.made_at}"


def make(last_id: int, last_hash: str, *, database: str, key: bytes, now: dt.datetime) -> dict:
    """The checkpoint of a chain whose head is (`last_id`, `last_hash`), signed with `key`."""
    if now.tzinfo is None:
        raise ValueError("checkpoint times must be timezone-aware")
    fields = {"format": FORMAT, "last_id": last_id, "last_hash": last_hash,
              "made_at": now.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
              "database": database, "key_id": key_id(key)}
    return {**fields, "hmac_sha256": _signature(fields, key)}


def dumps(checkpoint: dict) -> str:
    return json.dumps(checkpoint, indent=2, ensure_ascii=False) + "\n"


MAX_CHECKPOINT_BYTES = 64 * 1024  # a checkpoint is a few hundred bytes


def load(data: bytes, *, key: bytes) -> Checkpoint:
    """The checkpoint in `data`, its signature checked with `key`. CheckpointError says what is wrong."""
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError("is not an audit checkpoint (a checkpoint is a few hundred bytes)")
    try:
        fields = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise CheckpointError("is not an audit checkpoint (not JSON)") from None
    if not isinstance(fields, dict) or fields.get("format") != FORMAT:
        raise CheckpointError(f"is not an audit checkpoint (no \"format\": \"{FORMAT}\")")
    missing = [k for k in (*_FIELDS, "hmac_sha256") if k not in fields]
    if missing:
        raise CheckpointError(f"is not a complete audit checkpoint (missing {', '.join(missing)})")
    last_id, last_hash, signature = fields["last_id"], fields["last_hash"], fields["hmac_sha256"]
    if (not isinstance(last_id, int) or isinstance(last_id, bool) or last_id < 0
            or not isinstance(last_hash, str) or len(last_hash) != 64
            or not all(isinstance(fields[k], str) for k in ("made_at", "database", "key_id"))
            or not isinstance(signature, str)):
        raise CheckpointError("is not a valid audit checkpoint (a field has the wrong type)")
    if not hmac.compare_digest(fields["key_id"], key_id(key)):
        raise CheckpointError(f"was signed with another key (key id {fields['key_id'][:16]!r}, this key's is "
                              f"{key_id(key)!r}): give the key it was made with")
    if not hmac.compare_digest(signature, _signature(fields, key)):
        raise CheckpointError("does not match its signature: it was altered after it was made")
    return Checkpoint(last_id, last_hash, fields["made_at"], fields["database"])
