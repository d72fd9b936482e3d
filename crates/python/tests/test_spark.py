"""The Spark example (examples/spark_warc_to_text.py) in PySpark's local
mode, local[2], over WARC files this test builds from the project's test
pages and a few legacy-charset pages. Skipped, with a message, when PySpark,
warcio or Java are absent; under CI (the CI variable set) that is a failure.
"""

import importlib.util
import io
import os
import pathlib
import shutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _missing():
    missing = [name for name in ("pyspark", "warcio") if importlib.util.find_spec(name) is None]
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing.append("java")
    return missing


MISSING = _missing()
if MISSING:
    message = f"the Spark test needs {', '.join(MISSING)} (.ci/run installs them)"
    if os.environ.get("CI"):
        raise RuntimeError(message)
    pytest.skip(message, allow_module_level=True)

from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

LEGACY = [
    ("http://example.ru/news/page.html", "text/html; charset=koi8-r",
     "<html lang=ru><title>Привет</title><p>Привет, <a href='../other.html'>мир</a>!</p>".encode("koi8-r")),
    ("http://example.jp/", "text/html",
     '<meta charset="shift_jis"><title>日本</title><p>日本語</p>'.encode("shift_jis")),
    ("http://example.fr/", "text/html",
     "<meta http-equiv=Content-Type content='text/html; charset=windows-1252'><p>Café € crème</p>".encode("windows-1252")),
    ("http://example.de/", "text/html; charset=utf-8",
     "<p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln für alle Unternehmen "
     "ab dem nächsten Jahr gelten sollen.</p>".encode()),
]


def write_warc(path, pages, extra=()):
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for url, content_type, body in pages:
            headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)
            writer.write_record(record)
        for record in extra:
            writer.write_record(record(writer))


def test_the_example_converts_warcs_on_spark_local_2(tmp_path):
    sys.path.insert(0, str(ROOT / "examples"))
    import spark_warc_to_text as job

    own = sorted((ROOT / "testdata/cli").glob("*.html"))
    pages = [(f"http://example.com/{p.name}", "text/html", p.read_bytes()) for p in own]
    image = lambda w: w.create_warc_record(
        "http://example.com/logo.png", "response", payload=io.BytesIO(b"\x89PNG\r\n\x1a\n"),
        http_headers=StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1"))
    request = lambda w: w.create_warc_record(
        "http://example.com/", "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
        http_headers=None)
    write_warc(tmp_path / "a.warc.gz", pages, extra=[image, request])
    write_warc(tmp_path / "b.warc.gz", LEGACY)
    listing = tmp_path / "warc.paths"
    listing.write_text(f"{tmp_path / 'a.warc.gz'}\nfile://{tmp_path / 'b.warc.gz'}\n")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = job.main(["--master", "local[2]", str(listing), str(tmp_path / "out.parquet")])
    try:
        rows = {r["url"]: r for r in spark.read.parquet(str(tmp_path / "out.parquet")).collect()}
    finally:
        spark.stop()
    assert len(rows) == len(pages) + len(LEGACY)
    ru = rows["http://example.ru/news/page.html"]
    assert (ru["encoding"], ru["encoding_source"], ru["title"], ru["lang"]) == ("KOI8-R", "transport", "Привет", "ru")
    assert "Привет, [http://example.ru/other.html||мир]!" in ru["text"]
    assert rows["http://example.jp/"]["encoding"] == "Shift_JIS"
    assert "日本語" in rows["http://example.jp/"]["text"]
    assert rows["http://example.fr/"]["encoding"] == "windows-1252"
    assert "Café € crème" in rows["http://example.fr/"]["text"]
    de = rows["http://example.de/"]
    assert (de["lang"], de["detected_lang"]) == (None, "de")
    assert 0.0 <= de["detected_lang_confidence"] <= 1.0
    for row in rows.values():
        assert row["text"] is not None and row["date"]


ARTICLE = (
    "<title>News</title><body><nav><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></nav>"
    "<article><h1>Rain at last</h1>"
    + "".join(
        f"<p>Paragraph {n}: the rain came in the night, after weeks of drought, and the farmers, "
        "who had waited for it since spring, went out to see the fields in the morning.</p>"
        for n in range(4)
    )
    + "</article><footer><p>Copyright 2024, The Daily Example, all rights reserved, "
    "and more of the same.</p></footer>"
).encode()


def test_the_example_keeps_the_main_content_with_its_report(tmp_path):
    sys.path.insert(0, str(ROOT / "examples"))
    import spark_warc_to_text as job

    write_warc(tmp_path / "c.warc.gz", [("http://example.com/rain.html", "text/html; charset=utf-8", ARTICLE)] + LEGACY[:1])
    listing = tmp_path / "warc.paths"
    listing.write_text(f"{tmp_path / 'c.warc.gz'}\n")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    out = tmp_path / "main.parquet"
    spark = job.main(["--master", "local[2]", "--main-content", str(listing), str(out)])
    try:
        rows = {r["url"]: r for r in spark.read.parquet(str(out)).collect()}
    finally:
        spark.stop()
    rain = rows["http://example.com/rain.html"]
    assert "Paragraph 3: the rain came" in rain["text"] and "= Rain at last =" in rain["text"]
    assert "Home" not in rain["text"] and "Copyright" not in rain["text"]
    report = rain["main_content"]
    assert (report["element"], report["dropped"]) == ("article", 2)
    assert dict(report["dropped_kinds"]) == {"nav": 1, "footer": 1}
    assert report["kept_chars"] > report["dropped_chars"] > 0
    # A page with no part that stands out is kept whole, and says so.
    ru = rows["http://example.ru/news/page.html"]
    assert ru["main_content"]["element"] is None and ru["main_content"]["dropped"] == 0


def test_the_example_writes_plain_text_or_markdown(tmp_path):
    sys.path.insert(0, str(ROOT / "examples"))
    import spark_warc_to_text as job

    write_warc(tmp_path / "d.warc.gz", [("http://example.com/rain.html", "text/html; charset=utf-8", ARTICLE)])
    listing = tmp_path / "warc.paths"
    listing.write_text(f"{tmp_path / 'd.warc.gz'}\n")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    texts = {}
    for text_format in ["plain", "markdown"]:
        out = tmp_path / f"{text_format}.parquet"
        spark = job.main(["--master", "local[2]", "--format", text_format, str(listing), str(out)])
        try:
            texts[text_format] = spark.read.parquet(str(out)).collect()[0]["text"]
        finally:
            spark.stop()
    assert texts["plain"].startswith("Home World Sport\n\nRain at last\n"), texts["plain"]
    assert "# Rain at last" in texts["markdown"] and "[Home](" in texts["markdown"], texts["markdown"]
