"""Tests of the Python package, run by `cargo xtask ci` with pytest."""

import threading
import time

import pytest

import pagetext

KOI8 = "<html lang=ru><title>Привет</title><p>Привет, <a href='../other.html'>мир</a>!</p>".encode("koi8-r")


def test_the_http_charset_is_the_transport_layers():
    page = pagetext.to_text(KOI8, content_type="text/html; charset=koi8-r")
    assert (page.encoding, page.source) == ("KOI8-R", "transport")
    assert (page.title, page.lang) == ("Привет", "ru")
    assert page.text == "#Title Привет\n#Lang ru\n\nПривет, [../other.html||мир]!\n"
    # Python's reprs of the values, not Rust's (`title=Some("...")`).
    assert repr(page).startswith("TextResult(encoding='KOI8-R', source='transport', title='Привет', ")
    assert "title=None" in repr(pagetext.to_text(b"<p>x"))
    assert repr(pagetext.to_xhtml("x")).startswith("XhtmlResult(encoding='UTF-8', ")


FRENCH = ("<html lang=en><p>Le projet de loi a été largement approuvé par les députés, et le texte "
          "sera désormais examiné par le Sénat, puis par le Conseil constitutionnel.</p>").encode()


def test_the_detected_language_stands_next_to_the_declared_one():
    page = pagetext.to_text(FRENCH)
    assert (page.lang, page.detected_lang) == ("en", "fr")
    assert 0.0 <= page.detected_lang_confidence <= 1.0
    quiet = pagetext.to_text(FRENCH, detect_language=False)
    assert (quiet.detected_lang, quiet.detected_lang_confidence) == (None, None)
    assert quiet.text == page.text
    assert pagetext.to_text(b"<p>12 345").detected_lang is None


ARTICLE = (
    "<title>News</title><body><nav><a href=/>Home</a> <a href=/world>World</a></nav>"
    "<main><h1>Rain at last</h1>"
    + "".join(
        f"<p>Paragraph {n}: the rain came in the night, after weeks of drought, and the farmers, "
        "who had waited for it since spring, went out to see the fields in the morning.</p>"
        for n in range(4)
    )
    + "<ul class=share><li><a href=/s>Share</a></ul></main>"
    "<footer><p>Copyright 2024, The Daily Example, all rights reserved, and more.</p></footer>"
).encode()


def test_main_content_keeps_the_article_and_says_what_was_dropped():
    whole = pagetext.to_text(ARTICLE)
    assert whole.main_content is None
    assert "Home" in whole.text and "Copyright" in whole.text
    page = pagetext.to_text(ARTICLE, main_content=True)
    assert page.text.startswith("#Title News\n")
    assert "= Rain at last =" in page.text and "Paragraph 3: the rain" in page.text
    assert "Home" not in page.text and "Share" not in page.text and "Copyright" not in page.text
    report = page.main_content
    assert (report["element"], report["dropped"]) == ("main", 3)
    assert report["dropped_kinds"] == {"nav": 1, "share": 1, "footer": 1}
    assert report["kept_chars"] > report["dropped_chars"] > 0
    # A page where nothing stands out is kept whole, and says so.
    short = pagetext.to_text(KOI8, content_type="text/html; charset=koi8-r", main_content=True)
    assert short.text == pagetext.to_text(KOI8, content_type="text/html; charset=koi8-r").text
    assert (short.main_content["element"], short.main_content["dropped"]) == (None, 0)


def test_base_url_resolves_relative_links():
    page = pagetext.to_text(KOI8, content_type="text/html; charset=koi8-r", base_url="http://example.ru/news/page.html")
    assert "[http://example.ru/other.html||мир]" in page.text


def test_default_encoding_replaces_autodetection():
    page = pagetext.to_text("<p>Ÿ é</p>".encode("windows-1252"), default_encoding="windows-1252")
    assert (page.encoding, page.source) == ("windows-1252", "user-default")
    assert page.text == "\nŸ é\n"


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="unknown encoding label"):
        pagetext.to_text(b"<p>x", default_encoding="no-such-charset")
    with pytest.raises(ValueError, match="base_url"):
        pagetext.to_text(b"<p>x", base_url="not a url")
    with pytest.raises(TypeError):
        pagetext.to_text("a str is not bytes")


def test_diagnostics_are_dicts():
    page = pagetext.to_text(b"<p><a href='javascript:alert(1)'>x</a></p><script>x()</script>")
    codes = {d["code"] for d in page.diagnostics}
    assert "unsafe-link" in codes
    for d in page.diagnostics:
        assert set(d) == {"severity", "code", "message", "line", "column"}
        assert d["severity"] in {"error", "warning", "note"}
    # The command line's words, and a column where the text has one.
    text_diags = pagetext.check("#Lang en us\n\nx\n")
    assert text_diags and all(d["column"] for d in text_diags), text_diags


def test_to_xhtml_writes_the_charset_asked_for():
    out = pagetext.to_xhtml("#Title Café\n\n= Café =\n\n2 €\n", encoding="windows-1252")
    assert out.encoding == "windows-1252"
    xhtml = out.xhtml
    assert xhtml.startswith(b'<?xml version="1.0" encoding="windows-1252"?>')
    assert b"<h1>Caf\xe9</h1>" in xhtml and b"2 \x80" in xhtml
    assert bytes(out) == xhtml
    assert out.diagnostics == []
    table = pagetext.to_xhtml("\n*A*   *B*\n1   2\n", tables=True).xhtml
    assert b"<th>A</th>" in table
    with pytest.raises(ValueError):
        pagetext.to_xhtml("x", encoding="nope")


def test_to_xhtml_onto_changes_only_what_was_edited():
    page = (b'<!DOCTYPE html><html><head><meta charset="windows-1252"><title>Caf\xe9</title>'
            b'<script>x()</script></head><body><p class="lead">One word here.</p>'
            b"<p>Two \x80.</p></body></html>")
    text = pagetext.to_text(page).text
    same = pagetext.to_xhtml(text, onto=page)
    assert same.xhtml == page and same.encoding == "windows-1252"
    edited = pagetext.to_xhtml(text.replace("word", "word \u2192"), onto=page)
    assert edited.xhtml == page.replace(b"word here", b"word &#8594; here")
    with pytest.raises(ValueError):
        pagetext.to_xhtml(text, onto=page, tables=True)


def test_to_xhtml_doctype_is_asked_for():
    plain = pagetext.to_xhtml("#Title T\n\nx\n").xhtml
    assert plain.startswith(b"<html xmlns=")
    with_doctype = pagetext.to_xhtml("#Title T\n\nx\n", doctype=True).xhtml
    assert with_doctype == (
        b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
        b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n' + plain
    )
    with pytest.raises(ValueError):
        pagetext.to_xhtml("x", onto=b"<p>x", doctype=True)


def test_to_xhtml_reports_what_emission_changed():
    # Latin-1 has no snowman: a character reference, and a diagnostic saying so.
    out = pagetext.to_xhtml("\nA \u2603 here\n", encoding="iso-8859-1")
    assert b"A &#9731; here" in out.xhtml
    assert [d["code"] for d in out.diagnostics] == ["character-references"]
    assert out.diagnostics[0]["severity"] == "note"
    assert out.diagnostics[0]["line"] is None
    # An encoding that cannot be written: UTF-8 instead, with a warning.
    out = pagetext.to_xhtml("\nx\n", encoding="utf-16le")
    assert out.encoding == "UTF-8"
    assert [d["code"] for d in out.diagnostics] == ["encoding-substituted"]
    # An anchor name that is not an XML name is renamed, at its line.
    out = pagetext.to_xhtml("\nfirst\n\n[|1st|second]\n")
    renamed = [d for d in out.diagnostics if d["code"] == "anchor-renamed"]
    assert len(renamed) == 1 and renamed[0]["line"] == 4
    for d in out.diagnostics:
        assert set(d) == {"severity", "code", "message", "line", "column"}


def test_round_trip():
    page = pagetext.to_text(KOI8, content_type="text/html; charset=koi8-r")
    again = pagetext.to_text(pagetext.to_xhtml(page.text).xhtml)
    assert again.text == page.text


def test_sniff():
    assert pagetext.sniff(b"<meta charset=shift_jis><p>x") == {
        "encoding": "Shift_JIS",
        "confidence": "certain",
        "source": "meta-confirmed",
    }
    assert pagetext.sniff(b"<p>x", "text/html; charset=iso-8859-2")["source"] == "transport"


def test_check_finds_near_misses():
    diagnostics = pagetext.check("\n= Heading ==\n\ntext\n")
    assert [(d["code"], d["line"]) for d in diagnostics] == [("heading-markers-uneven", 2)]
    assert pagetext.check("\n= Heading =\n") == []


def test_the_gil_is_released_while_converting():
    """While one thread converts a big page, another runs Python code."""
    big = b"<p>" + b"word <em>emphasis</em> " * 200_000
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    before = ticks
    pagetext.to_text(big)
    during = ticks - before
    done.set()
    counter.join()
    # Holding the GIL for the whole conversion would leave the counter at a
    # switch interval's worth of ticks at most (a few thousand).
    assert during > 50_000, during


def test_threads_give_the_same_results():
    from concurrent.futures import ThreadPoolExecutor

    pages = [f"<title>Page {i}</title><p>{'word ' * i}</p>".encode() for i in range(200)]
    alone = [pagetext.to_text(p).text for p in pages]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: pagetext.to_text(p).text, pages))
    assert together == alone


def test_images_are_kept_unless_seed_text_is_asked_for():
    page = b'<p>Logo <img src="logo.png" alt="ACME" width="16" height="16"></p>'
    extended = pagetext.to_text(page)
    assert extended.text == "#Extend image\n\nLogo ![logo.png||ACME]{16x16}\n"
    assert b'<img src="logo.png" alt="ACME" width="16" height="16" />' in pagetext.to_xhtml(extended.text).xhtml
    seed = pagetext.to_text(page, seed=True)
    assert seed.text == "\nLogo ACME\n"
    assert [d["code"] for d in seed.diagnostics] == ["image-as-text"]


def test_plain_text_is_what_a_reader_sees():
    page = pagetext.to_text(b"<title>T</title><h1>Hi</h1><p>A <a href=x.html>link</a> and <b>bold</b>.", format="plain")
    assert page.text == "Hi\n\nA link and bold.\n"
    assert page.title == "T"
    md = pagetext.to_text(b"<h1>Hi</h1><p>A <a href=x.html>link</a> and 2*3.", format="markdown")
    assert md.text == "# Hi\n\nA [link](x.html) and 2\\*3.\n"
    with pytest.raises(ValueError):
        pagetext.to_text(b"<p>x", format="markdown-ish")
