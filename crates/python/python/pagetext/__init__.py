"""pagetext: web pages in any charset to a small wiki-like text format, and
that text back to clean XHTML 1.0.

    >>> import pagetext
    >>> page = pagetext.to_text(b"<title>Caf\\xe9</title><p>Hello",
    ...                         content_type="text/html; charset=windows-1252")
    >>> page.text
    '#Title Café\\n\\nHello\\n'
    >>> (page.encoding, page.source)
    ('windows-1252', 'transport')

The conversions release the GIL: threads convert pages in parallel.
"""

from ._pagetext import TextResult, XhtmlResult, __version__, check, sniff, to_text, to_xhtml

__all__ = ["TextResult", "XhtmlResult", "check", "sniff", "to_text", "to_xhtml", "__version__"]
