"""Crawl-scale measurements for docs/benchmarks.md ("Crawl scale" section).

For each corpus, builds a gzip WARC (one member per record, as crawlers write
them) from its HTML pages, then measures on this machine, in the same run and
alternating, round after round:

1. the CLI: `pagetext to-text --warc W -o OUT`, with -j 1 and with the
   default (one worker per core);
2. Python in one process: `pagetext.to_text` over the WARC's HTML responses;
3. Python in one process: resiliparse's HTML2Text over the same responses
   (its own encoding detection, `HTMLTree.parse`, `extract_plain_text` with
   its defaults).

Both Python paths get the same records, read once with warcio (payloads
decoded as warcio decodes them) and held in memory; their time is the
conversions only. The CLI's time is the whole process: reading and
gunzipping the WARC, converting, writing the JSON lines.

Pages per second per core is pages per second (wall clock) divided by the
workers used: the CLI's summary line says how many (`min(-j, records)`); a
Python loop is one. CPU seconds (user + system, the child's for the CLI, the
process's own for Python) are reported beside it: on a machine that others
share, the CPU time is the steadier figure. Each row is the round with the
lowest wall time (best of --rounds).

    cargo xtask bench-crawl            # builds, installs, runs on corpus/ and corpus-modern/
    python crates/bench/crawl/bench_crawl.py --corpus corpus --corpus corpus-modern \\
        --pagetext target/release/pagetext

A corpus folder with a `files.txt` (one relative path per line) gives those
pages, in that order; otherwise every .html/.htm/.xhtml file below it.
Needs the pagetext package, warcio and resiliparse; --spark also pyspark
and Java (the example job in local[2], see examples/spark_warc_to_text.py).
"""

import argparse
import io
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def corpus_pages(corpus, limit):
    corpus = pathlib.Path(corpus)
    listing = corpus / "files.txt"
    if listing.exists():
        names = [line.strip() for line in listing.read_text().splitlines() if line.strip()]
        pages = [corpus / name for name in names]
    else:
        pages = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in HTML_SUFFIXES and p.is_file())
    return corpus, pages[:limit]


def build_warc(corpus, path, limit):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    corpus, pages = corpus_pages(corpus, limit)
    total = 0
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for page in pages:
            body = page.read_bytes()
            total += len(body)
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            url = "http://example.org/" + page.relative_to(corpus).as_posix()
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers))
    return len(pages), total


def read_records(warc):
    """The HTML responses of a WARC as (payload, Content-Type, URL), as a
    Python crawl job reads them (warcio), and the time that took."""
    from warcio.archiveiterator import ArchiveIterator

    start = time.process_time()
    records = []
    with open(warc, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type == "response":
                records.append((record.content_stream().read(), record.http_headers.get_header("Content-Type"),
                                record.rec_headers.get_header("WARC-Target-URI")))
    return records, time.process_time() - start


SUMMARY = re.compile(r"\(([\d.]+) pages/s, ([\d.]+) pages/s per core on (\d+) workers?\)")


TIME = "/usr/bin/time"


def run_cli(argv, tmp):
    """Wall time, CPU time (user + system), peak resident set (KiB) and the
    worker count of the summary line, of one CLI run.

    A child's ru_maxrss starts from its parent's resident set at the fork
    (this process holds the pages), so the peak is GNU time's, whose own
    child is forked from a small process; without it, no peak memory."""
    report = pathlib.Path(tmp) / "time.txt"
    wrapped = [TIME, "-f", "%M", "-o", str(report), *argv] if os.path.exists(TIME) else argv
    start = time.perf_counter()
    child = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{argv}: exit {status}: {err}")
    found = SUMMARY.search(err)
    if not found:
        raise RuntimeError(f"{argv}: no summary line with pages/s per core in: {err}")
    rss = int(report.read_text().split()[-1]) if wrapped is not argv else None
    # GNU time's own CPU time is a millisecond or two: counted, not removed.
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": rss, "workers": int(found[3])}


def in_process(job):
    wall, cpu = time.perf_counter(), time.process_time()
    job()
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "rss": None, "workers": 1}


def measure(pagetext_bin, warc, out, records, rounds, tmp):
    import pagetext
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree

    def ours():
        for data, content_type, url in records:
            pagetext.to_text(data, content_type=content_type, base_url=url)

    def theirs():
        for data, _, _ in records:
            extract_plain_text(HTMLTree.parse(bytes_to_str(data, detect_encoding(data))))

    paths = {
        "CLI `to-text --warc -j 1`": lambda: run_cli([pagetext_bin, "to-text", "--warc", "-j", "1", "-o", out, warc], tmp),
        "CLI `to-text --warc` (default: one worker per core)": lambda: run_cli([pagetext_bin, "to-text", "--warc", "-o", out, warc], tmp),
        "Python `pagetext.to_text`, one process": lambda: in_process(ours),
        "Python resiliparse `extract_plain_text`, one process": lambda: in_process(theirs),
    }
    runs = {name: [] for name in paths}
    for _ in range(rounds):
        for name, job in paths.items():
            runs[name].append(job())
    return {name: min(r, key=lambda m: m["wall"]) for name, r in runs.items()}


def spark(warc, copies, tmp):
    listing = pathlib.Path(tmp) / "warc.paths"
    empty = pathlib.Path(tmp) / "empty.paths"
    listing.write_text("".join(f"{warc}\n" for _ in range(copies)))
    empty.write_text("")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    example = str(ROOT / "examples/spark_warc_to_text.py")

    def job(paths, out):
        start = time.perf_counter()
        child = subprocess.run([sys.executable, example, "--master", "local[2]", str(paths), str(pathlib.Path(tmp) / out)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if child.returncode != 0:
            raise RuntimeError("the Spark job failed")
        return time.perf_counter() - start

    startup = job(empty, "empty.parquet")
    wall = job(listing, "out.parquet")
    return wall, startup


def report(corpus, args, tmp):
    warc = str(pathlib.Path(tmp) / "crawl.warc.gz")
    out = str(pathlib.Path(tmp) / "pages.jsonl")
    count, size = build_warc(corpus, warc, args.limit)
    records, read_cpu = read_records(warc)
    assert len(records) == count, (len(records), count)
    print(f"\n**{corpus}**: {count} pages, {size / 1e6:.1f} MB of HTML ({size / count / 1e3:.0f} kB a page), "
          f"WARC {os.path.getsize(warc) / 1e6:.1f} MB gzip; best of {args.rounds} rounds; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    best = measure(args.pagetext, warc, out, records, args.rounds, tmp)
    theirs = best["Python resiliparse `extract_plain_text`, one process"]
    theirs_per_core = count / theirs["wall"] / theirs["workers"]
    theirs_per_cpu = count / theirs["cpu"]
    print("| Path | workers | pages/s | pages/s per core | CPU s | pages per CPU s | × resiliparse's time: per core (per CPU s) | peak memory |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, m in best.items():
        rate = count / m["wall"]
        per_core = rate / m["workers"]
        per_cpu = count / m["cpu"]
        rss = f"{m['rss'] / 1024:.0f} MiB" if m["rss"] else ""
        print(f"| {name} | {m['workers']} | {rate:,.0f} | {per_core:,.0f} | {m['cpu']:.2f} | {per_cpu:,.0f} | "
              f"{theirs_per_core / per_core:.2f}× ({theirs_per_cpu / per_cpu:.2f}×) | {rss} |")
    print(f"\nReading the records with warcio (not in the Python rows): {read_cpu:.2f} CPU s. "
          f"Load average after: {os.getloadavg()[0]:.2f}.")
    if args.spark:
        wall, startup = spark(warc, args.copies, tmp)
        total = count * args.copies
        print(f"\nSpark local[2], {args.copies} WARC copies ({total} pages): {wall:.1f} s wall, of which about {startup:.1f} s "
              f"is starting Spark (an empty job); {total / (wall - startup):.0f} pages/s after startup, "
              f"{total / (wall - startup) / 2:.0f} pages/s per core")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", help="a folder of pages (repeatable; default: corpus/)")
    parser.add_argument("--pagetext", default=str(ROOT / "target/release/pagetext"))
    parser.add_argument("--limit", type=int, default=100_000, help="pages at most per corpus")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--spark", action="store_true", help="also the Spark example in local[2]")
    parser.add_argument("--copies", type=int, default=8, help="WARC copies for Spark")
    args = parser.parse_args()
    import pagetext
    import resiliparse
    from importlib.metadata import version

    print(f"pagetext {version('pagetext')} (CLI {subprocess.run([args.pagetext, '--version'], capture_output=True, text=True).stdout.strip()}), "
          f"resiliparse {version('resiliparse')}, warcio {version('warcio')}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs (this process may use {len(os.sched_getaffinity(0))})")
    del pagetext, resiliparse
    for corpus in args.corpus or [str(ROOT / "corpus")]:
        with tempfile.TemporaryDirectory() as tmp:
            report(corpus, args, tmp)


if __name__ == "__main__":
    main()
