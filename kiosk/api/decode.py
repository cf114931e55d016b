"""An answer's body decoded under a cap: a compression bomb is refused while it decodes.

httpx decodes ``Content-Encoding`` a whole received chunk at a time, with no bound on
what comes out: 64 KiB of gzip may become hundreds of MiB before any cap looks at it.
The session therefore reads the raw bytes and decodes them here, each layer of the
``Content-Encoding`` (``gzip``, ``x-gzip``, ``deflate``, ``identity``, several in a row)
with zlib's ``max_length``, ``STEP`` bytes at a time: no layer ever produces more
than the cap and one byte, and the first byte past the cap refuses the answer, so what
a bomb costs is about the cap. Any other encoding (``br``, ``zstd``,
``compress``) is refused: the client asks only for ``gzip, deflate``.

An intermediate layer's output is compressed data, which may be a little longer than
what it decodes to (incompressible data in gzip grows by a few bytes per 16 KiB): it
is capped at twice the cap.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

ACCEPT_ENCODING = "gzip, deflate"
STEP = 64 * 1024  # the most one layer gives out at once
MAX_LAYERS = 3  # "gzip, gzip, gzip": more is no server's honest answer


class TooLarge(Exception):
    """The decoded answer passed its cap."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"answer larger than {limit // 1024} KiB: not read")


class BadEncoding(Exception):
    """An encoding the client did not ask for, or a body that does not decode."""


class _Layer:
    """One ``gzip`` or ``deflate`` layer whose output is bounded by ``budget`` bytes,
    given out ``STEP`` bytes at a time (what is held at once stays near the cap)."""

    __slots__ = ("_budget", "_cap", "_produced", "_raw_fallback", "_started", "_zlib", "name")

    def __init__(self, name: str, budget: int, cap: int) -> None:
        self.name = name
        self._budget = budget
        self._cap = cap  # the answer's cap, for the message
        self._produced = 0
        self._started = False
        # deflate is zlib-wrapped by the RFC, raw deflate by some servers: try both.
        self._raw_fallback = name == "deflate"
        self._zlib = zlib.decompressobj(
            zlib.MAX_WBITS if name == "deflate" else 16 + zlib.MAX_WBITS
        )

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data:
            # Never 0: zlib reads a max_length of 0 as "unbounded".
            room = min(STEP, self._budget - self._produced + 1)
            try:
                out = self._zlib.decompress(data, room)
            except zlib.error as exc:
                if self._raw_fallback and not self._started:
                    self._raw_fallback = False
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise BadEncoding(f"{self.name} body that does not decode") from exc
            self._started = True
            self._count(out)
            if not out:
                return
            yield out
            data = self._zlib.unconsumed_tail

    def finish(self) -> bytes:
        try:
            out = self._zlib.flush()
        except zlib.error as exc:
            raise BadEncoding(f"{self.name} body cut short") from exc
        self._count(out)
        if self._started and not self._zlib.eof:
            raise BadEncoding(f"{self.name} body cut short")
        return out

    def _count(self, out: bytes) -> None:
        self._produced += len(out)
        if self._produced > self._budget:
            raise TooLarge(self._cap)


class BoundedBody:
    """Collects an answer's raw chunks into its decoded body, at most ``limit`` bytes."""

    __slots__ = ("_chunks", "_layers", "_limit", "_size")

    def __init__(self, content_encoding: str, limit: int) -> None:
        self._limit = limit
        self._size = 0
        self._chunks: list[bytes] = []
        names = [n.strip().lower() for n in content_encoding.split(",") if n.strip()]
        names = [n for n in names if n != "identity"]
        if len(names) > MAX_LAYERS:
            raise BadEncoding(f"{len(names)} content encodings in a row")
        layers: list[_Layer] = []
        # Applied in the order listed, so undone from the last one.
        for index, name in enumerate(reversed(names)):
            if name not in ("gzip", "x-gzip", "deflate"):
                raise BadEncoding(f"content encoding {name[:20]!r} not accepted")
            last = index == len(names) - 1
            kind = "deflate" if name == "deflate" else "gzip"
            layers.append(_Layer(kind, limit if last else 2 * limit, limit))
        self._layers = layers

    def feed(self, raw: bytes) -> None:
        self._through(0, raw)

    def finish(self) -> bytes:
        for index, layer in enumerate(self._layers):
            self._through(index + 1, layer.finish())
        return b"".join(self._chunks)

    def _through(self, index: int, data: bytes) -> None:
        """``data`` through the layers from ``index`` on, kept at the end."""
        if index == len(self._layers):
            self._keep(data)
            return
        for piece in self._layers[index].feed(data):
            self._through(index + 1, piece)

    def _keep(self, data: bytes) -> None:
        if not data:
            return
        self._size += len(data)
        if self._size > self._limit:
            raise TooLarge(self._limit)
        self._chunks.append(data)
