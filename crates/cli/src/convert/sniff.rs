//! `sniff`: the encoding the ingestion pipeline settles on for a file, and
//! why, in the shape `sniff --json` prints.

use serde::Serialize;

use super::Converted;

/// The encoding the pipeline settled on for one file, as `sniff` prints it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SniffReport {
    /// The encoding's WHATWG name.
    #[serde(serialize_with = "encoding_name")]
    pub(crate) encoding: &'static encoding_rs::Encoding,
    /// Certain or tentative.
    pub(crate) confidence: sniff::Confidence,
    /// Why, as an object with a `kind`.
    pub(crate) source: SniffSource,
    /// Said next to the answer when the bytes look like binary data (a
    /// known signature, mostly control bytes): the answer is given all the
    /// same, as the algorithm gives one for any bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
    /// What the pipeline said, for the human-readable line (its `Display`
    /// is that line without the path).
    #[serde(skip)]
    pub(crate) settled: htmlio::ingest::Settled,
}

/// Why the pipeline settled on an encoding, for `sniff --json`: the sniffing
/// step that decided (the `sniff` crate's own object: `bom`, `transport`,
/// `meta`, `autodetected`, `default`...), or a `<meta>` the parser met later
/// that confirmed or changed it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum SniffSource {
    /// The sniffing algorithm decided and nothing changed it.
    Sniffed(sniff::Source),
    /// A `<meta>` met while parsing confirmed or changed the encoding.
    Parser {
        /// `meta-confirmed` or `meta-changed`.
        kind: &'static str,
        /// The line of that `<meta>`.
        line: u32,
        /// What it declared (before the standard's substitutions).
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "opt_encoding_name"
        )]
        declared: Option<&'static encoding_rs::Encoding>,
        /// The tentative encoding sniffing had given.
        #[serde(serialize_with = "encoding_name")]
        sniffed_encoding: &'static encoding_rs::Encoding,
        /// Why sniffing had given it.
        sniffed: sniff::Source,
    },
}

fn encoding_name<S: serde::Serializer>(
    encoding: &&'static encoding_rs::Encoding,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(encoding.name())
}

fn opt_encoding_name<S: serde::Serializer>(
    encoding: &Option<&'static encoding_rs::Encoding>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match encoding {
        Some(e) => serializer.serialize_str(e.name()),
        None => serializer.serialize_none(),
    }
}

impl SniffReport {
    /// The report for what the ingestion pipeline settled on.
    pub(crate) fn new(
        settled: &htmlio::ingest::Settled,
        sniffed_encoding: &'static encoding_rs::Encoding,
    ) -> SniffReport {
        use htmlio::ingest::Why;
        let source = match settled.why {
            Why::Sniffed(source) => SniffSource::Sniffed(source),
            // Not produced for bytes; shown as what it is.
            Why::Text => SniffSource::Sniffed(sniff::Source::UserOverride),
            Why::Confirmed { sniffed, line } => SniffSource::Parser {
                kind: "meta-confirmed",
                line,
                declared: None,
                sniffed_encoding,
                sniffed,
            },
            Why::Changed {
                from,
                sniffed,
                declared,
                line,
                ..
            } => SniffSource::Parser {
                kind: "meta-changed",
                line,
                declared: Some(declared),
                sniffed_encoding: from,
                sniffed,
            },
        };
        SniffReport {
            encoding: settled.encoding,
            confidence: settled.confidence,
            source,
            note: None,
            settled: *settled,
        }
    }
}

/// `sniff`: the encoding the whole ingestion pipeline settles on (sniffing,
/// then a `<meta>` the parser meets while the encoding is tentative).
pub(super) fn settle(bytes: &[u8], hints: &sniff::Hints<'_>) -> Converted {
    let sniffed = sniff::sniff(bytes, hints);
    let settled = htmlio::ingest::settle_encoding(bytes, hints);
    Converted {
        encoding: Some(settled.encoding),
        sniff: Some(SniffReport::new(&settled, sniffed.encoding)),
        ..Converted::default()
    }
}
