"""The clerk guide's screenshots (docs/clerk-guide/images/), taken by the browser tests that walk each task.

Every image a guide page shows is named here once, with the page that shows it; tests/docs checks that each page
shows exactly its images and that each file exists. A test takes them with `GuideImages(page)("name")`.

They are written into docs/clerk-guide/images/ when RECOUNT_DOCS_IMAGES=1 (then commit the PNGs that changed),
else beside the other screenshots (tests/browser/screenshots/clerk-guide/, git-ignored), so that an ordinary test
run leaves the working tree as it was: the pictures change by a pixel whenever the sandbox's clock shows another
minute.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS_IMAGES = ROOT / "docs" / "clerk-guide" / "images"
# The window of a guide's screenshot: a laptop's, large enough for a modal beside the channel.
VIEWPORT = {"width": 1200, "height": 780}

# image name -> the guide page (docs/clerk-guide/) that shows it.
IMAGES: dict[str, str] = {
    "check-verdicts": "01-checking-for-automatic-recounts.md",
    "check-case-card": "01-checking-for-automatic-recounts.md",
    "returns-new-contest": "02-entering-returns.md",
    "returns-entry": "02-entering-returns.md",
    "returns-recorded": "02-entering-returns.md",
    "upload-attached": "02-entering-returns.md",
    "upload-preview": "02-entering-returns.md",
    "request-form": "03-a-request-arrives.md",
    "request-card": "03-a-request-arrives.md",
    "request-approve": "03-a-request-arrives.md",
    "request-case-card": "03-a-request-arrives.md",
    "cost-modal": "04-cost-and-deposit.md",
    "cost-payment": "04-cost-and-deposit.md",
    "cost-ready": "04-cost-and-deposit.md",
    "counting-confirm": "05-counting-and-tally-sheets.md",
    "counting-set-up": "05-counting-and-tally-sheets.md",
    "counting-tally-sheet": "05-counting-and-tally-sheets.md",
    "counting-card": "05-counting-and-tally-sheets.md",
    "corrections-evidence": "06-corrections.md",
    "corrections-returns": "06-corrections.md",
    "completion-modal": "07-completion-and-certificates.md",
    "completion-card": "07-completion-and-certificates.md",
    "completion-thread": "07-completion-and-certificates.md",
    "lot-card": "08-the-lot-for-ties.md",
    "lot-modal": "08-the-lot-for-ties.md",
    "lot-recorded": "08-the-lot-for-ties.md",
    "observers-share": "09-observers.md",
    "observers-sidebar": "09-observers.md",
    "observers-page": "09-observers.md",
}


def small_png(png: bytes) -> bytes:
    """The screenshot in 256 colours: a page of text and flat colours loses nothing a reader sees, and the file is
    a third of the size, so the committed pictures stay small. (Pillow comes with fpdf2.)"""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    quantized = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, "PNG", optimize=True)
    return out.getvalue()


def images_directory() -> Path:
    if os.environ.get("RECOUNT_DOCS_IMAGES") == "1":
        return DOCS_IMAGES
    base = Path(os.environ.get("RECOUNT_SCREENSHOTS") or Path(__file__).parent / "screenshots")
    return base / "clerk-guide"


class GuideImages:
    """guide("check-verdicts"): the window as it is now, saved as that guide image. Names not in IMAGES are refused,
    so a picture no page shows is never taken, and each name is taken once per test."""

    def __init__(self, page) -> None:
        self.page, self.taken = page, []
        page.set_viewport_size(VIEWPORT)

    def __call__(self, name: str, *, page=None) -> Path:
        assert name in IMAGES, f"{name} is not a clerk guide image (tests/browser/guide_images.py IMAGES)"
        assert name not in self.taken, f"{name} taken twice"
        self.taken.append(name)
        directory = images_directory()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{name}.png"
        path.write_bytes(small_png((page or self.page).screenshot()))
        return path

    def expect_all_of(self, pages: set[str]) -> None:
        """Each image of those guide pages was taken by this test (a step lost from the walk shows here)."""
        wanted = {name for name, shown_on in IMAGES.items() if shown_on in pages}
        assert set(self.taken) == wanted, sorted(wanted ^ set(self.taken))
