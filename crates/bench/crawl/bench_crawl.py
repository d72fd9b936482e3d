"""Crawl-scale measurements for docs/benchmarks.md ("Crawl scale" section).

Builds a gzip WARC (one member per record, as crawlers write them) from the
HTML pages of a folder, then measures on this machine, in one run:

1. the CLI: `pagetext to-text --warc W -o /dev/null` with -j 1 and -j 2;
2. Python in one process: `pagetext.to_text` over the same pages, and
   resiliparse's HTML2Text (`extract_plain_text`, with its own encoding
   detection) over the same pages, alternating, as a ratio;
3. Spark local[2]: examples/spark_warc_to_text.py over COPIES copies of the
   WARC (startup included, and also measured alone on an empty list).

Peak memory: the CLI's and the Spark workers' largest resident set (from
wait4 and from /proc), the Python process's own.

    python crates/bench/crawl/bench_crawl.py --corpus corpus --pagetext target/release/pagetext

Needs the pagetext package, warcio, resiliparse and (for step 3) pyspark and Java.
"""

import argparse
import io
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]


def build_warc(corpus, path, limit):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    pages = sorted(p for p in pathlib.Path(corpus).rglob("*") if p.suffix.lower() in (".html", ".htm"))[:limit]
    total = 0
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for i, page in enumerate(pages):
            body = page.read_bytes()
            total += len(body)
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            url = f"http://example.org/{i}/{page.name}"
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers))
    return len(pages), total


def read_pages(warc):
    from warcio.archiveiterator import ArchiveIterator

    pages = []
    with open(warc, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type == "response":
                pages.append((record.content_stream().read(), record.http_headers.get_header("Content-Type"),
                              record.rec_headers.get_header("WARC-Target-URI")))
    return pages


def run_child(argv):
    """Wall time, CPU time and peak resident set (KiB) of a child."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode(errors="replace")
    if status != 0:
        raise RuntimeError(f"{argv}: exit {status}: {err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def cli(pagetext, warc, pages):
    rows = []
    for jobs in (1, 2):
        best = min((run_child([pagetext, "to-text", "--warc", "-q", "-j", str(jobs), "-o", "/dev/null", warc]) for _ in range(3)),
                   key=lambda r: r[0])
        wall, cpu, rss = best
        rows.append((f"CLI `to-text --warc -j {jobs}`", pages / wall, pages / cpu, rss))
    return rows


def python_one_process(pages, rounds):
    import pagetext
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree

    def ours():
        for data, content_type, url in pages:
            pagetext.to_text(data, content_type=content_type, base_url=url)

    def theirs():
        for data, _, _ in pages:
            extract_plain_text(HTMLTree.parse(bytes_to_str(data, detect_encoding(data))))

    times = {"pagetext": [], "resiliparse": []}
    for _ in range(rounds):
        for name, job in (("pagetext", ours), ("resiliparse", theirs)):
            start = time.process_time()
            job()
            times[name].append(time.process_time() - start)
    best = {name: min(t) for name, t in times.items()}
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return best, rss


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus"))
    parser.add_argument("--pagetext", default=str(ROOT / "target/release/pagetext"))
    parser.add_argument("--limit", type=int, default=2000, help="pages at most")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--copies", type=int, default=8, help="WARC copies for Spark")
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warc = str(pathlib.Path(tmp) / "crawl.warc.gz")
        count, size = build_warc(args.corpus, warc, args.limit)
        pages = read_pages(warc)
        print(f"corpus: {args.corpus}: {count} pages, {size / 1e6:.1f} MB of HTML, WARC {os.path.getsize(warc) / 1e6:.1f} MB gzip")
        print("| Path | pages/s (wall) | pages/s per core (CPU) | peak memory |")
        print("|---|---:|---:|---:|")
        for name, wall, per_core, rss in cli(args.pagetext, warc, count):
            print(f"| {name} | {wall:.0f} | {per_core:.0f} | {rss / 1024:.0f} MiB |")
        best, rss = python_one_process(pages, args.rounds)
        print(f"| Python, one process, `pagetext.to_text` | {count / best['pagetext']:.0f} | {count / best['pagetext']:.0f} | {rss / 1024:.0f} MiB (the process, pages in memory) |")
        print(f"| Python, one process, resiliparse `extract_plain_text` | {count / best['resiliparse']:.0f} | {count / best['resiliparse']:.0f} | |")
        print(f"\npagetext / resiliparse CPU time on the same pages: {best['pagetext'] / best['resiliparse']:.2f}")
        worker = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import spark_warc_to_text as job; "
                  "n = sum(1 for _ in job.convert_warc(sys.argv[2]))", str(ROOT / "examples"), warc]
        wall, cpu, rss = run_child(worker)
        print(f"A Spark Python worker's task alone (`convert_warc` streaming the WARC): {count / cpu:.0f} pages/s per core, peak memory {rss / 1024:.0f} MiB")
        if not args.no_spark:
            wall, startup = spark(warc, args.copies, tmp)
            total = count * args.copies
            print(f"\nSpark local[2], {args.copies} WARC copies ({total} pages): {wall:.1f} s wall, of which about {startup:.1f} s is starting Spark (an empty job); "
                  f"{total / (wall - startup):.0f} pages/s after startup, {total / (wall - startup) / 2:.0f} pages/s per core")


if __name__ == "__main__":
    main()
