"""Files: the external upload flow (reserve, receive bytes, complete and share), files a person uploaded in
a modal's `file_input`, and `files.info` (a layer of `StandInState`)."""
from __future__ import annotations

import copy
import mimetypes
import secrets
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from ._sync import mutator
from .errors import SlackError
from .state_messages import MessagesMixin


class FilesMixin(MessagesMixin):
    def _init_files(self) -> None:
        self._files: dict[str, dict[str, Any]] = {}
        self._file_bytes: dict[str, bytes] = {}
        self._upload_tokens: dict[str, str] = {}
        #: Where `url_private` points; the server sets it to itself so downloads work end to end.
        self.files_root = "https://files.slack.com"

    @mutator
    def reserve_upload(self, filename: str, length: int, *, alt_txt: str | None = None,
                       snippet_type: str | None = None) -> tuple[str, str]:
        """files.getUploadURLExternal: returns (file_id, upload token for the upload URL)."""
        fid = self._new_id("F", self._files)
        token = secrets.token_urlsafe(18)
        self._files[fid] = {"id": fid, "name": filename, "title": filename, "declared_length": length,
                            "alt_txt": alt_txt, "snippet_type": snippet_type, "uploaded": False,
                            "completed": False, "size": 0}
        self._upload_tokens[token] = fid
        self._emit("file.reserved", file_id=fid)
        return fid, token

    @mutator
    def receive_upload(self, token: str, data: bytes) -> str:
        """The bytes POSTed to an upload URL. Raises KeyError for a URL the stand-in never issued."""
        fid = self._upload_tokens[token]
        self._file_bytes[fid] = bytes(data)
        self._files[fid].update({"uploaded": True, "size": len(data)})
        self._emit("file.uploaded", file_id=fid, size=len(data))
        return fid

    def _file_urls(self, meta: dict[str, Any]) -> dict[str, str]:
        """Where the file's bytes are served: on `files_root` as it is now (a test may move it)."""
        base = f"{self.files_root}/files-pri/{self.workspace.team_id}-{meta['id']}"
        name = quote(meta["name"])
        return {"url_private": f"{base}/{name}", "url_private_download": f"{base}/download/{name}"}

    def _file_object(self, meta: dict[str, Any]) -> dict[str, Any]:
        ws, fid, name = self.workspace, meta["id"], meta["name"]
        ext = PurePosixPath(name).suffix.lstrip(".").lower()
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        created = int(self.now().timestamp())
        owner = meta.get("user") or ws.bot_user_id
        return {
            "id": fid, "created": created, "timestamp": created, "name": name, "title": meta["title"],
            "mimetype": mimetype, "filetype": ext or "binary", "pretty_type": (ext or "binary").upper(),
            "user": owner, "user_team": ws.team_id, "editable": False, "size": meta["size"],
            "mode": "hosted", "is_external": False, "external_type": "", "is_public": False,
            "public_url_shared": False, "display_as_bot": False, "username": "",
            **self._file_urls(meta),
            "permalink": f"https://{ws.team_domain}.slack.com/files/{owner}/{fid}/{quote(name)}",
            "comments_count": 0, "is_starred": False, "shares": {}, "channels": [], "groups": [], "ims": [],
            "has_rich_preview": False, "file_access": "visible", "alt_txt": meta.get("alt_txt"),
        }

    @mutator
    def complete_uploads(self, files: list[dict[str, Any]], *, channel_id: Any = None,
                         initial_comment: str | None = None, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """files.completeUploadExternal: finalise the files and, given a channel, share them in one message."""
        objects = []
        for item in files:
            meta = self._files.get(item.get("id")) if isinstance(item, dict) else None
            if meta is None or not meta["uploaded"]:
                raise SlackError("file_not_found")
            if item.get("title"):
                meta["title"] = item["title"]
            meta["completed"] = True
            objects.append(self._file_object(meta))
        if channel_id:
            chan = self._channel(channel_id)
            cid, info = chan["info"]["id"], chan["info"]
            kind = "private" if info.get("is_private") or info.get("is_im") else "public"
            bucket = "ims" if info.get("is_im") else ("groups" if kind == "private" else "channels")
            for obj in objects:
                obj[bucket].append(cid)
                obj["is_public"] = kind == "public"
            _, msg = self.post_message(cid, text=initial_comment or "", files=objects, upload=True,
                                       thread_ts=thread_ts)
            for obj in objects:
                share = {"reply_users": [], "reply_users_count": 0, "reply_count": 0, "ts": msg["ts"],
                         "channel_name": info.get("name", ""), "team_id": self.workspace.team_id,
                         "share_user_id": self.workspace.bot_user_id, "source": "UNKNOWN"}
                if msg.get("thread_ts"):
                    share["thread_ts"] = msg["thread_ts"]
                obj["shares"] = {kind: {cid: [share]}}
                self._files[obj["id"]]["shared"] = {"channel": cid, "ts": msg["ts"]}
        for obj in objects:
            self._files[obj["id"]]["file"] = copy.deepcopy(obj)
            self._emit("file.completed", file_id=obj["id"], channel=channel_id)
        return copy.deepcopy(objects)

    @mutator
    def add_user_file(self, user_id: str, filename: str, data: bytes) -> dict[str, Any]:
        """A file a person uploaded from their Slack client, e.g. into a modal's `file_input`: hosted,
        completed, owned by them and shared nowhere. Returns the Slack file object (what a view_submission
        carries in the input's `files`)."""
        uid = self._user(user_id)["id"]
        fid = self._new_id("F", self._files)
        name = str(filename) or "file"
        meta = {"id": fid, "name": name, "title": name, "declared_length": len(data), "alt_txt": None,
                "snippet_type": None, "uploaded": True, "completed": True, "size": len(data), "user": uid}
        self._files[fid] = meta
        self._file_bytes[fid] = bytes(data)
        meta["file"] = self._file_object(meta)
        self._emit("file.uploaded", file_id=fid, size=len(data), user=uid)
        return copy.deepcopy(meta["file"])

    def file_info(self, file_id: Any) -> dict[str, Any]:
        """files.info: the file object of a completed file (SlackError file_not_found otherwise)."""
        with self._lock:
            meta = self._files.get(file_id) if isinstance(file_id, str) else None
            if meta is None or not meta.get("completed") or "file" not in meta:
                raise SlackError("file_not_found")
            return {**copy.deepcopy(meta["file"]), **self._file_urls(meta)}

    # ----------------------------------------------------------------- readers
    def files(self) -> dict[str, dict[str, Any]]:
        """Every file by id: upload bookkeeping plus, once completed, the Slack file object under "file"."""
        with self._lock:
            return copy.deepcopy(self._files)

    def file_content(self, file_id: str) -> bytes | None:
        with self._lock:
            return self._file_bytes.get(file_id)

    def file_by_team_path(self, key: str) -> tuple[dict[str, Any], bytes] | None:
        """For the url_private route: "<team>-<file id>" -> (metadata, bytes) of a completed file."""
        team, _, fid = key.partition("-")
        with self._lock:
            meta = self._files.get(fid)
            if team != self.workspace.team_id or meta is None or not meta.get("completed"):
                return None
            return copy.deepcopy(meta), self._file_bytes[fid]
