//! Reading WARC files (ISO 28500, WARC 1.0 and 1.1) record by record:
//! plain, or gzip-compressed one record per member (as crawlers write them;
//! a member holding several records works too), and the archived HTTP
//! responses they hold ([`Http`]). This module reads and reports with
//! typed errors ([`BadRecord`], `http::HttpError`); it prints nothing and
//! decides nothing about a run (`crate::crawl` does).
//!
//! Only one record is in memory at a time, whatever the file's size: a gzip
//! member is decompressed as it is read (so a whole file compressed as one
//! member works too, its records all at the member's offset). A record
//! that cannot be read is an [`Item::Bad`] with its offset (in the file as
//! stored: the compressed offset of its gzip member), and reading goes on
//! at the next record it can find: the next line starting with `WARC/`, or
//! the next gzip member. A record larger than [`MAX_RECORD`] is skipped the
//! same way. An error reading the file itself (not its contents) is
//! reported once and ends reading. The header block's grammar is the
//! `warc` crate's.

mod http;

use std::fmt;
use std::io::{self, BufRead, Read};

pub(crate) use http::Http;

/// The largest record body read; larger ones are skipped (and reported).
pub(crate) const MAX_RECORD: u64 = 256 * 1024 * 1024;

/// The largest header block.
const MAX_HEADER: usize = 1024 * 1024;

/// One WARC record: its named header fields and its block.
#[derive(Debug)]
pub(crate) struct Record {
    /// Where it starts in the file as stored.
    pub(crate) offset: u64,
    /// The header fields, in order (names as written).
    pub(crate) headers: Vec<(String, String)>,
    /// The record's block (for a `response`, the HTTP response).
    pub(crate) body: Vec<u8>,
}

impl Record {
    /// The first header field called `name` (without case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `WARC-Target-URI`, without the angle brackets WARC 1.0 files
    /// sometimes put around it (empty when there is none).
    pub(crate) fn target_uri(&self) -> &str {
        self.header("WARC-Target-URI")
            .unwrap_or("")
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
    }

    /// Whether the block is an HTTP message (`Content-Type:
    /// application/http`, or no type): not a `dns:` lookup or another
    /// protocol's response.
    pub(crate) fn holds_http(&self) -> bool {
        self.header("Content-Type").is_none_or(|t| {
            t.trim()
                .to_ascii_lowercase()
                .starts_with("application/http")
        })
    }
}

/// What reading gives, one at a time.
#[derive(Debug)]
pub(crate) enum Item {
    /// A record.
    Record(Record),
    /// Something that is not a readable record, at `offset`.
    Bad {
        /// Where it starts.
        offset: u64,
        /// What is wrong.
        error: BadRecord,
    },
}

/// Why a record cannot be read. Its `Display` is a lower-case phrase.
#[derive(Debug)]
pub(crate) enum BadRecord {
    /// A line where a record should start does not start one: reading
    /// goes on at the next line that starts with `WARC/`.
    NotARecord,
    /// The file ends inside a record's header.
    HeaderTruncated,
    /// A header block longer than [`MAX_HEADER`] bytes: skipped.
    HeaderTooLong,
    /// A header block the WARC grammar rejects: skipped.
    MalformedHeader,
    /// A block of `length` bytes, over [`MAX_RECORD`]: skipped
    /// (`truncated` when the file ended before its end).
    TooLarge {
        /// The block's declared length.
        length: u64,
        /// Whether the file ends inside it.
        truncated: bool,
    },
    /// The file ends inside a record's block: `read` of its `length` bytes.
    Truncated {
        /// The bytes there were.
        read: usize,
        /// The block's declared length.
        length: u64,
    },
    /// A gzip member that cannot be decompressed (`None`: it ends early);
    /// `then` when looking for the next member failed too, which ends
    /// reading.
    BadMember {
        /// Why it cannot be decompressed; `None` when it is truncated.
        error: Option<io::Error>,
        /// Why the next member cannot be found.
        then: Option<io::Error>,
    },
    /// The file itself cannot be read; reading ends.
    Unreadable(io::Error),
}

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRecord::NotARecord => {
                f.write_str("not the start of a WARC record: skipped to the next one")
            }
            BadRecord::HeaderTruncated => {
                f.write_str("a truncated record: the file ends in its header")
            }
            BadRecord::HeaderTooLong => {
                write!(f, "a header block over {MAX_HEADER} bytes: skipped")
            }
            BadRecord::MalformedHeader => {
                f.write_str("a malformed WARC header: skipped to the next record")
            }
            BadRecord::TooLarge {
                length,
                truncated: true,
            } => write!(
                f,
                "a truncated record of {length} bytes (over the {MAX_RECORD}-byte limit)"
            ),
            BadRecord::TooLarge { length, .. } => write!(
                f,
                "a record of {length} bytes, over the {MAX_RECORD}-byte limit: skipped"
            ),
            BadRecord::Truncated { read, length } => {
                write!(f, "a truncated record: {read} of its {length} bytes")
            }
            BadRecord::BadMember { error, then } => {
                match error {
                    None => f.write_str("a truncated gzip member")?,
                    Some(e) => write!(f, "a corrupt gzip member ({e})")?,
                }
                match then {
                    Some(e) => write!(f, "; then cannot read: {e}"),
                    None => Ok(()),
                }
            }
            BadRecord::Unreadable(e) => write!(f, "cannot read: {e}"),
        }
    }
}

impl std::error::Error for BadRecord {}

/// A reader that counts what it has consumed.
struct Counted<R> {
    inner: R,
    pos: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

/// A gzip member being read: the decompressed stream over the file.
type MemberReader<R> = Counted<io::BufReader<flate2::bufread::GzDecoder<Counted<R>>>>;

/// Where reading is.
enum State<R> {
    /// Not started: the first two bytes tell gzip from plain.
    Start(Counted<R>),
    /// Plain records.
    Plain(Counted<R>, PlainState),
    /// Between gzip members.
    Members(Counted<R>),
    /// Inside the gzip member that starts at `offset`, decompressed as it
    /// is read (a member of many records, or a whole file compressed as
    /// one, is never held in memory).
    Member {
        offset: u64,
        reader: Box<MemberReader<R>>,
        state: PlainState,
    },
    /// The end, or an error reading the file, which ends reading.
    Done,
}

/// The records of a WARC stream.
pub(crate) struct Records<R> {
    state: State<R>,
}

impl<R: BufRead> Records<R> {
    /// Records read from `input`.
    pub(crate) fn new(input: R) -> Records<R> {
        Records {
            state: State::Start(Counted {
                inner: input,
                pos: 0,
            }),
        }
    }

    /// How many bytes of the stored file have been read.
    pub(crate) fn position(&self) -> u64 {
        match &self.state {
            State::Start(input) | State::Plain(input, _) | State::Members(input) => input.pos,
            State::Member { reader, .. } => reader.inner.get_ref().get_ref().pos,
            State::Done => 0,
        }
    }
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return None,
                State::Start(mut input) => {
                    let gzip = input
                        .fill_buf()
                        .is_ok_and(|start| start.starts_with(&[0x1f, 0x8b]));
                    self.state = if gzip {
                        State::Members(input)
                    } else {
                        State::Plain(input, PlainState::default())
                    };
                }
                State::Plain(mut input, mut state) => {
                    match next_plain(&mut input, &mut state, None) {
                        Step::Item(item) => {
                            self.state = State::Plain(input, state);
                            return Some(item);
                        }
                        Step::End => return None,
                        // The file cannot be read on: one report, the end.
                        Step::Failed(offset, e) => return Some(cannot_read(offset, e)),
                    }
                }
                State::Members(mut input) => {
                    let offset = input.pos;
                    match input.fill_buf() {
                        Ok([]) => return None,
                        Ok(_) => {}
                        Err(e) => return Some(cannot_read(offset, e)),
                    }
                    let decoder = flate2::bufread::GzDecoder::new(input);
                    self.state = State::Member {
                        offset,
                        reader: Box::new(Counted {
                            inner: io::BufReader::new(decoder),
                            pos: 0,
                        }),
                        state: PlainState::default(),
                    };
                }
                State::Member {
                    offset,
                    mut reader,
                    mut state,
                } => match next_plain(&mut reader, &mut state, Some(offset)) {
                    Step::Item(item) => {
                        self.state = State::Member {
                            offset,
                            reader,
                            state,
                        };
                        return Some(item);
                    }
                    Step::End => {
                        self.state = State::Members(reader.inner.into_inner().into_inner())
                    }
                    Step::Failed(_, e) => return self.bad_member(offset, *reader, e),
                },
            }
        }
    }
}

impl<R: BufRead> Records<R> {
    /// A member that cannot be decompressed: reported, and reading goes on
    /// at the next member.
    fn bad_member(&mut self, offset: u64, reader: MemberReader<R>, e: io::Error) -> Option<Item> {
        let mut input = reader.inner.into_inner().into_inner();
        let error = (e.kind() != io::ErrorKind::UnexpectedEof).then_some(e);
        let then = match seek_magic(&mut input, offset) {
            Ok(()) => {
                self.state = State::Members(input);
                None
            }
            Err(e) => Some(e),
        };
        Some(Item::Bad {
            offset,
            error: BadRecord::BadMember { error, then },
        })
    }
}

/// The report of a read error (the file, not its contents).
fn cannot_read(offset: u64, e: io::Error) -> Item {
    Item::Bad {
        offset,
        error: BadRecord::Unreadable(e),
    }
}

/// What reading one plain record gave.
enum Step {
    /// A record, or a report of one that is not readable.
    Item(Item),
    /// The end of the stream.
    End,
    /// The stream failed (an I/O error, or a corrupt gzip member): where
    /// the record started, and why.
    Failed(u64, io::Error),
}

/// Skips to the next `1f 8b 08` (a gzip member with deflate), or the end.
/// When the bad member at `offset` was not read at all, its first byte is
/// passed over, so that its own magic is not found again; otherwise the
/// search starts where its reading stopped (a magic inside compressed data
/// gives one more bad member, then the search goes on). (A magic split across two reads of the buffer is missed,
/// and so is that member: rare, and the members after it are found.)
fn seek_magic<R: BufRead>(input: &mut Counted<R>, offset: u64) -> io::Result<()> {
    let mut from = usize::from(input.pos == offset);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        let start = from.min(buf.len());
        from = 0;
        let found = buf
            .get(start..)
            .unwrap_or_default()
            .windows(3)
            .position(|w| w == [0x1f, 0x8b, 0x08]);
        match found {
            Some(at) => {
                input.consume(start + at);
                return Ok(());
            }
            None => {
                let all = buf.len();
                input.consume(all);
            }
        }
    }
}

/// What a plain stream remembers between records: a line read while
/// looking for a record's start that is that start.
#[derive(Default)]
struct PlainState {
    pending: Option<(u64, Vec<u8>)>,
}

/// Reads one line (with its end), at most `limit` bytes.
fn read_line<R: BufRead>(input: &mut Counted<R>, limit: usize) -> io::Result<Vec<u8>> {
    let mut line = Vec::new();
    input
        .by_ref()
        .take(limit as u64)
        .read_until(b'\n', &mut line)?;
    Ok(line)
}

/// The next record of a plain stream. `member` is the offset to report
/// (a gzip member's) in place of the position in the stream.
fn next_plain<R: BufRead>(
    input: &mut Counted<R>,
    state: &mut PlainState,
    member: Option<u64>,
) -> Step {
    // The version line: skip the empty lines between records.
    let (start, first) = loop {
        if let Some(pending) = state.pending.take() {
            break pending;
        }
        let start = input.pos;
        match read_line(input, MAX_HEADER) {
            Ok(line) if line.is_empty() => return Step::End,
            Ok(line) if line.iter().all(|b| matches!(b, b'\r' | b'\n')) => {}
            Ok(line) => break (start, line),
            Err(e) => return Step::Failed(member.unwrap_or(start), e),
        }
    };
    let offset = member.unwrap_or(start);
    if !first.starts_with(b"WARC/") {
        if let Err(e) = resync(input, state) {
            return Step::Failed(offset, e);
        }
        return Step::Item(Item::Bad {
            offset,
            error: BadRecord::NotARecord,
        });
    }
    let mut block = first;
    loop {
        let line = match read_line(input, MAX_HEADER) {
            Ok(line) => line,
            Err(e) => return Step::Failed(offset, e),
        };
        if line.is_empty() {
            return Step::Item(Item::Bad {
                offset,
                error: BadRecord::HeaderTruncated,
            });
        }
        let blank = line == b"\r\n" || line == b"\n";
        block.extend_from_slice(&line);
        if blank {
            break;
        }
        if block.len() > MAX_HEADER {
            if let Err(e) = resync(input, state) {
                return Step::Failed(offset, e);
            }
            return Step::Item(Item::Bad {
                offset,
                error: BadRecord::HeaderTooLong,
            });
        }
    }
    let (headers, length) = match warc::parser::headers(&block) {
        Ok((_, (_, fields, length))) => (
            fields
                .into_iter()
                .map(|(n, v)| (n.to_owned(), String::from_utf8_lossy(v).into_owned()))
                .collect::<Vec<_>>(),
            length as u64,
        ),
        Err(_) => {
            if let Err(e) = resync(input, state) {
                return Step::Failed(offset, e);
            }
            return Step::Item(Item::Bad {
                offset,
                error: BadRecord::MalformedHeader,
            });
        }
    };
    read_block(input, offset, headers, length)
}

/// Reads a record's block of `length` bytes.
fn read_block<R: BufRead>(
    input: &mut Counted<R>,
    offset: u64,
    headers: Vec<(String, String)>,
    length: u64,
) -> Step {
    if length > MAX_RECORD {
        let skipped = match io::copy(&mut input.by_ref().take(length), &mut io::sink()) {
            Ok(skipped) => skipped,
            Err(e) => return Step::Failed(offset, e),
        };
        return Step::Item(Item::Bad {
            offset,
            error: BadRecord::TooLarge {
                length,
                truncated: skipped < length,
            },
        });
    }
    let mut body = Vec::with_capacity(usize::try_from(length.min(1 << 20)).unwrap_or(0));
    if let Err(e) = input.by_ref().take(length).read_to_end(&mut body) {
        return Step::Failed(offset, e);
    }
    if (body.len() as u64) < length {
        return Step::Item(Item::Bad {
            offset,
            error: BadRecord::Truncated {
                read: body.len(),
                length,
            },
        });
    }
    Step::Item(Item::Record(Record {
        offset,
        headers,
        body,
    }))
}

/// Reads lines until one starts with `WARC/`, and keeps that line for the
/// next record.
fn resync<R: BufRead>(input: &mut Counted<R>, state: &mut PlainState) -> io::Result<()> {
    loop {
        let start = input.pos;
        let line = read_line(input, MAX_HEADER)?;
        if line.is_empty() {
            return Ok(());
        }
        if line.starts_with(b"WARC/") {
            state.pending = Some((start, line));
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn record(uri: &str, body: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn describe(items: impl Iterator<Item = Item>) -> Vec<String> {
        items
            .map(|item| match item {
                Item::Record(r) => format!(
                    "{} {} {}",
                    r.offset,
                    r.header("warc-target-uri").unwrap_or("-"),
                    String::from_utf8_lossy(&r.body)
                ),
                Item::Bad { offset, error } => format!("{offset} bad: {error}"),
            })
            .collect()
    }

    #[test]
    fn plain_records_with_their_offsets() {
        let mut file = record("http://a/", b"one");
        let second = file.len();
        file.extend(record("http://b/", b"two\r\n\r\nthree"));
        assert_eq!(
            describe(Records::new(&file[..])),
            [
                "0 http://a/ one".to_owned(),
                format!("{second} http://b/ two\r\n\r\nthree")
            ]
        );
    }

    #[test]
    fn gzip_members_with_their_compressed_offsets() {
        let mut file = gzip(&record("http://a/", b"one"));
        let second = file.len();
        file.extend(gzip(&record("http://b/", b"two")));
        assert_eq!(
            describe(Records::new(&file[..])),
            [
                "0 http://a/ one".to_owned(),
                format!("{second} http://b/ two")
            ]
        );
    }

    #[test]
    fn a_whole_file_compressed_as_one_member_is_streamed() {
        let plain = [
            record("http://a/", b"one"),
            record("http://b/", b"two"),
            record("http://c/", b"three"),
        ]
        .concat();
        assert_eq!(
            describe(Records::new(&gzip(&plain)[..])),
            ["0 http://a/ one", "0 http://b/ two", "0 http://c/ three"]
        );
    }

    /// A file that cannot be read past its first bytes.
    struct Failing(usize);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.0.min(buf.len());
            buf[..n].fill(b'W');
            self.0 -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_is_reported_once_and_ends_reading() {
        let items = describe(Records::new(io::BufReader::new(Failing(0))));
        assert_eq!(items, ["0 bad: cannot read: disk on fire"]);
        // Ten bytes of a line, then the error: one report all the same.
        let items = describe(Records::new(io::BufReader::new(Failing(10))));
        assert_eq!(items, ["0 bad: cannot read: disk on fire"]);
    }

    #[test]
    fn a_bad_record_is_reported_and_reading_goes_on() {
        let mut file = record("http://a/", b"one");
        let garbage = file.len();
        file.extend_from_slice(b"GARBAGE\r\nmore garbage\r\n");
        let third = file.len();
        file.extend(record("http://c/", b"three"));
        let broken = file.len();
        file.extend_from_slice(b"WARC/1.0\r\nthis is not a header\r\n\r\n");
        let fifth = file.len();
        file.extend(record("http://e/", b"five"));
        let summary = describe(Records::new(&file[..]));
        assert_eq!(summary.len(), 5, "{summary:?}");
        assert!(summary[1].starts_with(&format!("{garbage} bad: not the start")));
        assert_eq!(summary[2], format!("{third} http://c/ three"));
        assert!(summary[3].starts_with(&format!("{broken} bad: a malformed")));
        assert_eq!(summary[4], format!("{fifth} http://e/ five"));
    }

    #[test]
    fn truncated_files_end_with_a_report() {
        let mut file = record("http://a/", b"one");
        let second = file.len();
        file.extend(record("http://b/", b"a longer body"));
        file.truncate(file.len() - 10);
        let summary = describe(Records::new(&file[..]));
        assert_eq!(summary.len(), 2);
        assert!(
            summary[1].starts_with(&format!("{second} bad: a truncated record")),
            "{summary:?}"
        );
        // Compressed: the member is truncated in its data.
        let mut file = gzip(&record("http://a/", b"one"));
        let second = file.len();
        let long: Vec<u8> = (0u32..4000).flat_map(|i| i.to_le_bytes()).collect();
        file.extend(gzip(&record("http://b/", &long)));
        file.truncate((second + file.len()) / 2);
        let summary = describe(Records::new(&file[..]));
        assert_eq!(summary.len(), 2, "{summary:?}");
        assert!(
            summary[1].starts_with(&format!("{second} bad: a truncated gzip member")),
            "{summary:?}"
        );
        // ...or only in its trailer: the record was whole, the member is not.
        let mut whole = gzip(&record("http://a/", b"one"));
        whole.extend(gzip(&record("http://b/", b"two")));
        let summary = describe(Records::new(&whole[..whole.len() - 5]));
        assert_eq!(summary.len(), 3, "{summary:?}");
        assert_eq!(summary[1], format!("{second} http://b/ two"));
        assert_eq!(summary[2], format!("{second} bad: a truncated gzip member"));
    }

    #[test]
    fn a_corrupt_member_is_skipped_to_the_next() {
        let mut file = gzip(&record("http://a/", b"one"));
        let corrupt = file.len();
        let mut bad = gzip(&record("http://b/", b"two two two two"));
        let middle = bad.len() / 2;
        bad[middle] ^= 0xff;
        bad[middle + 1] ^= 0xff;
        file.extend(bad);
        let third = file.len();
        file.extend(gzip(&record("http://c/", b"three")));
        let summary = describe(Records::new(&file[..]));
        assert_eq!(summary.first().unwrap(), "0 http://a/ one");
        assert!(
            summary[1].starts_with(&format!("{corrupt} bad:")),
            "{summary:?}"
        );
        assert_eq!(summary.last().unwrap(), &format!("{third} http://c/ three"));
    }
}
