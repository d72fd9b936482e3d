"""Convert the HTML pages of a crawl's WARC files to text with pagetext, on Spark.

The shape of a Common Crawl job (cc-pyspark): the input is a text file listing
WARC files, one path or file:// URL per line; each Spark task reads its WARC
files record by record (warcio), converts every HTML response with the
pagetext Python package inside the executor, and the rows are written as
Parquet with the fields of `pagetext to-text --warc`:

    url, date, encoding, encoding_source, title, lang, detected_lang,
    detected_lang_confidence, text, warnings, errors

(`lang` is the language the page declares; `detected_lang` the one its text
is written in, with the detector's confidence from 0 to 1.) With
`--main-content`, each page keeps only its main content (the article,
without navigation, footers and other boilerplate, as `pagetext to-text
--main-content`), and a `main_content` column says what was dropped:
element, line, dropped, dropped_kinds (a map of kind to count), dropped_chars,
kept_chars.

Run it with spark-submit, or with Python where pyspark is installed:

    python examples/spark_warc_to_text.py --master 'local[2]' warc.paths out.parquet
    python examples/spark_warc_to_text.py --main-content warc.paths out.parquet

Executors need `pagetext` (pip install ./crates/python) and `warcio`; without
them the tasks fail. A WARC file that cannot be read to its end keeps the
pages read before the fault; the fault is logged, and the job goes on.
"""

import argparse
import functools
import logging
import sys

from pyspark.sql import SparkSession
from pyspark.sql.types import (
    ArrayType,
    DoubleType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
)

DIAGNOSTIC = StructType(
    [
        StructField("code", StringType()),
        StructField("message", StringType()),
        StructField("line", IntegerType()),
    ]
)

SCHEMA = StructType(
    [
        StructField("url", StringType()),
        StructField("date", StringType()),
        StructField("encoding", StringType()),
        StructField("encoding_source", StringType()),
        StructField("title", StringType()),
        StructField("lang", StringType()),
        StructField("detected_lang", StringType()),
        StructField("detected_lang_confidence", DoubleType()),
        StructField("text", StringType()),
        StructField("warnings", ArrayType(DIAGNOSTIC)),
        StructField("errors", ArrayType(DIAGNOSTIC)),
    ]
)

# The `main_content` column of `--main-content` (pagetext's TextResult.main_content).
MAIN_CONTENT = StructType(
    [
        StructField("element", StringType()),
        StructField("line", IntegerType()),
        StructField("dropped", LongType()),
        StructField("dropped_kinds", MapType(StringType(), LongType())),
        StructField("dropped_chars", LongType()),
        StructField("kept_chars", LongType()),
    ]
)

SCHEMA_MAIN_CONTENT = StructType(SCHEMA.fields + [StructField("main_content", MAIN_CONTENT)])

HTML_TYPES = ("text/html", "application/xhtml+xml")


def is_html(content_type):
    """HTML by its media type; a response without one is tried as HTML."""
    if not content_type:
        return True
    return content_type.split(";")[0].strip().lower() in HTML_TYPES


def local_path(path):
    return path[len("file://"):] if path.startswith("file://") else path


def convert_warc(path, main_content=False, text_format="text"):
    """The rows of one WARC file's HTML responses (with `main_content`, the
    pages' main content only, and a last column saying what was dropped;
    `text_format` is pagetext's: "text", "plain" or "markdown")."""
    import pagetext
    from warcio.archiveiterator import ArchiveIterator

    with open(local_path(path), "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            content_type = record.http_headers.get_header("Content-Type")
            if not is_html(content_type):
                continue
            url = record.rec_headers.get_header("WARC-Target-URI") or ""
            data = record.content_stream().read()
            try:
                page = pagetext.to_text(
                    data,
                    content_type=content_type,
                    base_url=url or None,
                    main_content=main_content,
                    format=text_format,
                )
            except ValueError:
                # A URL that does not parse: convert without an address.
                page = pagetext.to_text(
                    data, content_type=content_type, main_content=main_content, format=text_format
                )
            diagnostics = page.diagnostics
            pick = lambda severity: [
                (d["code"], d["message"], d["line"]) for d in diagnostics if d["severity"] == severity
            ]
            row = (
                url,
                record.rec_headers.get_header("WARC-Date") or "",
                page.encoding,
                page.source,
                page.title,
                page.lang,
                page.detected_lang,
                page.detected_lang_confidence,
                page.text,
                pick("warning"),
                pick("error"),
            )
            yield row + (page.main_content,) if main_content else row


def process_partition(paths, main_content=False, text_format="text"):
    """A task: its WARC files one after the other; a faulty one is logged."""
    # Missing packages fail the task (and the job), not each file quietly.
    import pagetext  # noqa: F401
    import warcio  # noqa: F401

    for path in paths:
        path = path.strip()
        if not path:
            continue
        try:
            yield from convert_warc(path, main_content, text_format)
        except Exception as fault:  # a corrupt or truncated file ends only itself
            logging.getLogger("pagetext").warning("%s: %s", path, fault)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="a text file listing WARC files, one per line")
    parser.add_argument("output", help="where the Parquet files go")
    parser.add_argument("--master", help="the Spark master (spark-submit sets it)")
    parser.add_argument("--partitions", type=int, default=None, help="Spark tasks (default: one per WARC file)")
    parser.add_argument(
        "--main-content",
        action="store_true",
        help="keep each page's main content only; a main_content column says what was dropped",
    )
    parser.add_argument(
        "--format",
        choices=["text", "plain", "markdown"],
        default="text",
        help="the text column: pagetext's text format, plain text (what a reader sees) or Markdown",
    )
    args = parser.parse_args(argv)
    builder = SparkSession.builder.appName("pagetext WARC to text")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    # The executors unpickle this module's functions: ship the module.
    spark.sparkContext.addPyFile(__file__)
    paths = spark.sparkContext.textFile(args.input)
    count = paths.count()
    paths = paths.repartition(args.partitions or max(count, 1))
    rows = paths.mapPartitions(
        functools.partial(process_partition, main_content=args.main_content, text_format=args.format)
    )
    schema = SCHEMA_MAIN_CONTENT if args.main_content else SCHEMA
    spark.createDataFrame(rows, schema).write.mode("overwrite").parquet(args.output)
    return spark


if __name__ == "__main__":
    main(sys.argv[1:]).stop()
