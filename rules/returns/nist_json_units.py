"""The GpUnits of a NIST report: their names, how they nest, and which of them are the units.

A report may give counts for a county and for the precincts it is composed of. Adding both would
count every vote twice, so the counted units with no counted unit beneath them (the leaves) are
the units, and every counted parent is cross-checked against the sum of its counted leaves.
"""
from __future__ import annotations

from typing import Any

from rules.returns.problems import Report


class GpUnits:
    def __init__(self, gpunits: list[dict[str, Any]], report: Report) -> None:
        self.report = report
        self._index: dict[str, int] = {}
        self._children: dict[str, list[str]] = {}
        self._descendants: dict[str, frozenset[str]] = {}
        for i, unit in enumerate(gpunits):
            uid = unit["@id"]
            if uid in self._index:
                report.problem(f"$.GpUnit[{i}].@id", f"@id {uid!r} is used twice (first at $.GpUnit[{self._index[uid]}])")
                continue
            self._index[uid] = i
        for uid, i in self._index.items():
            children = []
            for k, child in enumerate(gpunits[i].get("ComposingGpUnitIds", [])):
                if child in self._index:
                    children.append(child)
                else:
                    report.problem(f"$.GpUnit[{i}].ComposingGpUnitIds[{k}]", f"no GpUnit has @id {child!r}")
            self._children[uid] = children
        self._names = _display_names({uid: text_of(gpunits[i].get("Name")).strip() or uid for uid, i in self._index.items()})

    def known(self, uid: str) -> bool:
        return uid in self._index

    def name(self, uid: str) -> str:
        return self._names[uid]

    def descendants(self, uid: str) -> frozenset[str]:
        """Every unit uid is composed of, at any depth (itself excluded; cycles do not loop)."""
        cached = self._descendants.get(uid)
        if cached is not None:
            return cached
        seen: set[str] = set()
        stack = list(self._children.get(uid, ()))
        while stack:
            child = stack.pop()
            if child not in seen:
                seen.add(child)
                stack.extend(self._children.get(child, ()))
        seen.discard(uid)
        result = self._descendants[uid] = frozenset(seen)
        return result

    def resolve(
        self, contest: str, choice: str, counts: dict[str, tuple[int, str]], *, cross_check: bool = True,
    ) -> tuple[dict[str, int], int]:
        """Units (by display name) and votes for one choice, plus how many parent counts were cross-checked."""
        counted = counts.keys()
        parents = [u for u in counts if not self.descendants(u).isdisjoint(counted)]
        if not parents:
            return {self.name(u): votes for u, (votes, _) in counts.items()}, 0
        parent_set = set(parents)
        leaves = [u for u in counts if u not in parent_set]
        for parent in parents:
            below = self.descendants(parent)
            leaf_sum = sum(counts[u][0] for u in leaves if u in below)
            votes, path = counts[parent]
            if cross_check and votes != leaf_sum:
                self.report.problem(
                    f"{path}.Count",
                    f"{self.name(parent)} reports {votes:,} for {choice!r} in {contest!r}, but the units it is "
                    f"composed of add up to {leaf_sum:,}")
        return {self.name(u): counts[u][0] for u in leaves}, len(parents)


def text_of(international: Any) -> str:
    """InternationalizedText -> one string: the first English text, else the first text."""
    texts = international.get("Text", []) if isinstance(international, dict) else []
    for text in texts:
        if str(text.get("Language", "")).casefold().split("-")[0] == "en":
            return text.get("Content", "")
    return texts[0].get("Content", "") if texts else ""


def _display_names(names: dict[str, str]) -> dict[str, str]:
    """Two units with the same Name would merge into one unit; tell them apart by @id."""
    seen: dict[str, int] = {}
    for name in names.values():
        seen[name] = seen.get(name, 0) + 1
    return {uid: name if seen[name] == 1 else f"{name} ({uid})" for uid, name in names.items()}
