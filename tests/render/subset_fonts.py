"""Rebuild the fallback fonts shipped in render/fonts from Debian's packages, on purpose:

    apt-get install fonts-noto-cjk fonts-symbola
    python -m tests.render.subset_fonts [DIR]

Each keeps only the blocks a display name needs and DejaVu Sans lacks, with no hinting and no
layout tables (the pictures use Pillow's basic layout, which shapes nothing). ``DIR`` defaults
to render/fonts; look at the goldens (``python -m tests.render.regenerate``) after a rebuild.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from render.text import FALLBACKS, FONT_DIR

NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
NOTO_CJK_SC = 2  # the collection's Simplified Chinese face; kana and hangul are the same in all
SYMBOLA = Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf")

CJK_BLOCKS = (
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0x3130, 0x318F),  # hangul compatibility jamo (ㅋㅋ)
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xAC00, 0xD7A3),  # hangul syllables
    (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
)
EMOJI_BLOCKS = (
    (0x2300, 0x23FF),  # miscellaneous technical (⌛ ⏰)
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats
    (0x2B00, 0x2BFF),  # arrows and stars (⭐)
    (0x1F000, 0x1FAFF),  # the emoji and pictograph blocks
)


def subset_font(source: TTFont, blocks: tuple[tuple[int, int], ...], out: Path) -> None:
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = ["*"]  # keep the copyright and licence names
    options.notdef_outline = True
    options.drop_tables += ["DSIG", "VORG", "vhea", "vmtx", "GSUB", "GPOS", "GDEF", "BASE"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[code for low, high in blocks for code in range(low, high + 1)])
    subsetter.subset(source)
    source.save(out)
    print(f"{out}  {out.stat().st_size // 1024} KB, {len(source.getBestCmap())} characters")


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else FONT_DIR
    cjk, emoji = FALLBACKS
    subset_font(TTFont(NOTO_CJK, fontNumber=NOTO_CJK_SC), CJK_BLOCKS, out / cjk)
    subset_font(TTFont(SYMBOLA), EMOJI_BLOCKS, out / emoji)


if __name__ == "__main__":
    main(sys.argv[1:])
