"""The app's icon, drawn here: two playing cards fanned on the app's blue, as a PNG.

Made from code (nothing downloaded, no image library): a few shapes filled pixel by pixel
and written with zlib. Sizes 192 and 512 px for the web app manifest ("Add to home
screen"); the shapes are scaled from a 100-unit design, so every size is the same drawing.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

BLUE, WHITE, INK, RED = (11, 95, 255), (255, 255, 255), (17, 17, 17), (176, 0, 32)


def _on_card(x: float, y: float, centre: tuple[float, float], tilt: float, margin: float = 0) -> bool:
    """Whether (x, y), in design units, lies on a 36×50 card (less `margin` all round)
    centred at `centre` and turned by `tilt` (a slope)."""
    dx, dy = x - centre[0], y - centre[1]
    u, v = dx + tilt * dy, dy - tilt * dx
    return abs(u) <= 18 - margin and abs(v) <= 25 - margin


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    for centre, tilt, pip in (((62, 50), -0.25, True), ((38, 48), 0.25, False)):  # the front card first
        if _on_card(x, y, centre, tilt):
            if not _on_card(x, y, centre, tilt, margin=2):
                return INK
            if pip and (x - centre[0]) ** 2 + (y - centre[1]) ** 2 <= 64:
                return RED
            return WHITE
    return BLUE


@lru_cache(maxsize=4)
def icon_png(size: int) -> bytes:
    """The icon as a `size`×`size` PNG."""
    scale = 100 / size
    rows = b"".join(b"\0" + bytes(c for x in range(size) for c in _pixel((x + 0.5) * scale, (y + 0.5) * scale)) for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
