"""Type stubs for pagetext (the extension module is pagetext._pagetext)."""

from typing import Dict, List, Optional, TypedDict

__version__: str

# Diagnostic and Sniffed exist for type checkers only (import them under
# `typing.TYPE_CHECKING`): at run time the values are plain dicts.
class Diagnostic(TypedDict):
    severity: str  # "error", "warning" or "note", as the command line says
    code: str
    message: str
    line: Optional[int]
    column: Optional[int]  # where the line has one (the text's diagnostics)

class Sniffed(TypedDict):
    encoding: str
    confidence: str  # "certain" or "tentative"
    source: str

class MainContent(TypedDict):
    element: Optional[str]  # the element that holds the article; None: whole page kept
    line: Optional[int]
    dropped: int  # how many parts were dropped as boilerplate
    dropped_kinds: Dict[str, int]  # "nav", "footer", "link-list", "low-text"...
    dropped_chars: int
    kept_chars: int

class TextResult:
    """What to_text gives."""

    @property
    def text(self) -> str:
        """The page in the text format."""
    @property
    def encoding(self) -> str:
        """The encoding's WHATWG name."""
    @property
    def source(self) -> str:
        """Which step decided the encoding (transport, meta, autodetected...)."""
    @property
    def title(self) -> Optional[str]:
        """The page's title."""
    @property
    def lang(self) -> Optional[str]:
        """The page's language, as the page declares it."""
    @property
    def detected_lang(self) -> Optional[str]:
        """The language of the page's text as detected (en, fr, zh...), or None."""
    @property
    def detected_lang_confidence(self) -> Optional[float]:
        """The detector's confidence in detected_lang, from 0 to 1, or None."""
    @property
    def main_content(self) -> Optional[MainContent]:
        """With main_content=True, what was kept and dropped; else None."""
    @property
    def diagnostics(self) -> List[Diagnostic]:
        """What was lost or changed on the way."""

def to_text(
    data: bytes,
    *,
    content_type: Optional[str] = None,
    base_url: Optional[str] = None,
    default_encoding: Optional[str] = None,
    seed: bool = False,
    detect_language: bool = True,
    main_content: bool = False,
    format: str = "text",
) -> TextResult:
    """A web page (bytes, any charset) to the text format (format="plain":
    plain text, what a reader sees, no markup and no header;
    format="markdown": CommonMark with GFM tables); with seed=True,
    pure seed text (images as their alternative text, no extension); with
    detect_language, the language of its text too (detected_lang); with
    main_content=True, only the page's main content (the article, without
    navigation, footers and other boilerplate; what was dropped is in
    .main_content)."""

class XhtmlResult:
    """What to_xhtml gives."""

    @property
    def xhtml(self) -> bytes:
        """The XHTML, as bytes in `encoding`."""
    @property
    def encoding(self) -> str:
        """The encoding's WHATWG name (UTF-8 when the one asked for cannot be written)."""
    @property
    def diagnostics(self) -> List[Diagnostic]:
        """The parser's and emission's diagnostics, by line."""
    def __bytes__(self) -> bytes:
        """The XHTML."""

def to_xhtml(
    text: str,
    *,
    encoding: Optional[str] = None,
    tables: bool = False,
    doctype: bool = False,
    onto: Optional[bytes] = None,
) -> XhtmlResult:
    """Text in the text format to XHTML 1.0 bytes in `encoding` (UTF-8 by default), with
    diagnostics; with `doctype`, beginning with the XHTML 1.0 Transitional DOCTYPE (standards
    mode in browsers; the seed's default has none); with `onto` (the bytes of the page the text
    was read from), the text written onto that page, changing only what was edited."""

def sniff(data: bytes, content_type: Optional[str] = None) -> Sniffed:
    """Which encoding a page is in, how sure that is, and why."""

def check(text: str) -> List[Diagnostic]:
    """Diagnostics of text in the text format, near misses included."""
