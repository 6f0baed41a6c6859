"""Letters the bot drafts for a clerk to send (the notice of cost (2)(b)(III), the notice of the results (6)):
plain text with a day as a letter writes it, posted in code blocks so Slack keeps its lines, as many blocks as
Slack's limit per block makes it."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import SECTION_TEXT_LIMIT, context, esc, section

FENCE = "```"
SIGNATURE_PLACEHOLDER = "[name]"


def long_day(date: dt.date) -> str:
    """A day as a letter writes it: "Tuesday, November 3, 2026"."""
    return f"{date:%A, %B} {date.day}, {date.year}"


def paragraph_chunks(text: str, limit: int) -> list[str]:
    """Paragraphs packed into pieces whose escaped text fits `limit`; a paragraph too long alone is cut."""
    def fits(piece: str) -> bool:
        return len(esc(piece)) <= limit

    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n\n"):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if fits(candidate):
            current = candidate
            continue
        if current:
            pieces.append(current)
        while not fits(paragraph):
            cut = limit // 5  # every character escapes to at most five ("&amp;")
            while fits(paragraph[:cut + 1]):
                cut += 1
            pieces.append(paragraph[:cut])
            paragraph = paragraph[cut:]
        current = paragraph
    if current:
        pieces.append(current)
    return pieces


def letter_sections(letter: str) -> list[dict]:
    """The letter in code blocks, each within a section's 3,000 characters, saying so when it takes several."""
    room = SECTION_TEXT_LIMIT - 2 * len(FENCE) - 2
    pieces = [esc(piece) for piece in paragraph_chunks(letter, room)]
    blocks = [section(f"{FENCE}\n{piece}\n{FENCE}") for piece in pieces]
    if len(pieces) > 1:
        blocks.append(context(f"The letter is in {len(pieces)} parts above (Slack's limit per block)."))
    return blocks
