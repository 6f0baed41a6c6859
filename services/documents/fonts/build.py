"""How the Noto fonts beside this file were made (a developer's tool, not part of the package: run it only to
bring a font up to date, then commit the files it writes and update README.md).

    apt-get install fonts-noto-core fonts-noto-cjk            # Debian 12 (bookworm): the Noto sources
    pip download --no-deps manimgx-fonts==2026.9.26.post1     # carries Noto Emoji (monochrome), unmodified
    unzip manimgx_fonts-*.whl 'manimgx_fonts/NotoEmoji*' -d /tmp/emoji
    python services/documents/fonts/build.py --emoji '/tmp/emoji/manimgx_fonts/NotoEmoji[wght].ttf'

Every source is checked against the SHA-256 it had when the files here were made, so a rebuild from another
version of a package says so instead of silently changing what certificates look like.

- Noto Serif (Latin, Greek, Cyrillic beyond DejaVu), Noto Serif Hebrew, Noto Naskh Arabic and the other script
  fonts are copied unmodified from fonts-noto-core.
- Noto Sans CJK SC: one face of the collection in fonts-noto-cjk, subset to the CJK, Hangul and kana blocks
  (Latin comes from DejaVu), layout features dropped (a name needs none: text is NFC, so Hangul is precomposed),
  and its CFF outlines converted to TrueType (quadratic) outlines: fpdf2 embeds a CFF font with an embedded
  CMap encoding that some PDF readers (pypdf among them) cannot turn back into text; a TrueType font is embedded
  as Identity-H like DejaVu, which every reader understands. Compressed (git, wheel) both weigh the same.
- Noto Emoji: the variable font's default instance (wght 400) as a static font, so fpdf2 embeds no variation
  tables.
"""
from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_FACE = 2  # the collection's faces: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK (see README.md for why SC)

COPIED = {  # file name: SHA-256 of the Debian 12 file (fonts-noto-core 20201225-1)
    "NotoSerif-Regular.ttf": "9d7583b7dc9e812afd32a14280c5cac3160012efe50c8d08938f4fea266ff67f",
    "NotoSerifHebrew-Regular.ttf": "789b7e7e3ff4d95a5e105872a385db12c50c08b60ad5b773d25a3bec86621abf",
    "NotoSerifHebrew-Bold.ttf": "95150a28d438cba6c79393ef18ad06f39a8b53a7d457e61d8c9d585176ef36da",
    "NotoNaskhArabic-Regular.ttf": "8c67eaa2f0086872628fc3f7f760386f83c8be5c5e9a1ba3a38891237b2ac7cb",
    "NotoNaskhArabic-Bold.ttf": "b5cbcb561b4b540ff11d7b6934577dbbbbb9e1d152d47f6f31f19176d58ff39c",
    "NotoSerifEthiopic-Regular.ttf": "30bd9e21c81cd95a3004bbf75aba9b2ab5f861408a3fbb4f82b10fe82072952b",
    "NotoSerifDevanagari-Regular.ttf": "662c3cd6e17dd0561f53fe28ce6c32d7d64e650119f4bb0428fc50206bbc46fe",
    "NotoSerifMyanmar-Regular.ttf": "f88d1da5a75a8e09ff0b073fe3c861d095a72e94fea3235f09f80e6c5b2c9933",
    "NotoSerifThai-Regular.ttf": "8e1bcaa4fef346b247092cf4327c4744eda2fa72afed96e2145dc30a3b04fdd1",
    "NotoSerifKhmer-Regular.ttf": "98a2e27f6bc1d6ed58e6c9d32d84b84aa9dae4cdf727f3b3f36d03f3c06ff123",
    "NotoSerifLao-Regular.ttf": "18cecc9fc9ef0fe10f12cff8ddba88317d8b45fb1dfa2aa935d225184ad3893c",
}
# NotoSansCJK-Regular.ttc, fonts-noto-cjk 1:20220127+repack1-1
CJK_SHA256 = "b76b0433203017ca80401b2ee0dd69350349871c4b19d504c34dbdd80541690a"
# NotoEmoji[wght].ttf 3.002, in manimgx-fonts 2026.9.26.post1
EMOJI_SHA256 = "de6c18832938afc99caf132b39d6a30a19bac7f2e812e28db2535b4608d27551"

# The blocks kept from Noto Sans CJK: every code point the face maps in them (its whole CJK repertoire but the
# supplementary planes' 2,300 ideographs, which cover too little of Extension B and later to promise anything).
CJK_BLOCKS = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x3190, 0x31FF),  # Kanbun, Bopomofo Extended, CJK Strokes, Katakana Phonetic Extensions
    (0x3200, 0x33FF),  # Enclosed CJK Letters and Months, CJK Compatibility
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Hangul Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)
CU2QU_MAX_ERR = 1.0  # font units of 1,000 per em: the conversion's largest departure from the cubic curve


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(path: Path, expected: str) -> None:
    actual = sha256(path)
    if expected and actual != expected:
        sys.exit(f"{path}: SHA-256 {actual}, expected {expected}: another version; update README.md and this file")
    print(f"{path.name}: sha256 {actual}")


def to_truetype(font) -> None:
    """CFF outlines to quadratic TrueType outlines (after fontTools' Snippets/otf2ttf.py)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, CU2QU_MAX_ERR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    del font["CFF "]
    for table in ("VORG",):
        if table in font:
            del font[table]
    glyf.compile(font)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 0)
    maxp.maxZones = 1
    maxp.compile(font)
    post = font["post"]
    # Glyph names kept (post format 2): without them every load rebuilds 40,000 names from the cmap, half a
    # second per document; they cost 170 KB compressed.
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    font.sfntVersion = "\x00\x01\x00\x00"


def build_cjk(out: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    check(NOTO_CJK, CJK_SHA256)
    font = TTCollection(NOTO_CJK).fonts[CJK_FACE]
    unicodes = [u for u in font.getBestCmap() if any(lo <= u <= hi for lo, hi in CJK_BLOCKS)]
    options = subset.Options()
    options.layout_features = []
    options.name_IDs, options.name_languages = ["*"], ["*"]
    options.notdef_outline, options.glyph_names, options.hinting = True, False, False
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    to_truetype(font)
    font.recalcTimestamp = False  # the same sources make the same bytes
    font.save(out)
    print(f"{out.name}: {len(unicodes):,} code points, {out.stat().st_size:,} bytes")


def build_emoji(source: Path, out: Path) -> None:
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    check(source, EMOJI_SHA256)
    font = instancer.instantiateVariableFont(TTFont(source), {"wght": 400}, static=True)
    if "STAT" in font:
        del font["STAT"]
    font.recalcTimestamp = False
    font.save(out)
    print(f"{out.name}: {out.stat().st_size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emoji", type=Path, required=True, help="NotoEmoji[wght].ttf")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--skip-cjk", action="store_true", help="the CJK conversion takes minutes")
    args = parser.parse_args()
    for name, digest in COPIED.items():
        check(NOTO / name, digest)
        shutil.copyfile(NOTO / name, args.out / name)
    build_emoji(args.emoji, args.out / "NotoEmoji-Regular.ttf")
    if not args.skip_cjk:
        build_cjk(args.out / "NotoSansCJKsc-Regular.ttf")


if __name__ == "__main__":
    main()
