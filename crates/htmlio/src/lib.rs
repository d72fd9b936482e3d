//! HTML in and out of the pagetext document model: ingestion of real-world HTML
//! (through `sniff` and html5ever) and emission of XHTML 1.0 or HTML syntax.
//!
//! This is the only crate that knows HTML elements. It never prints and never
//! touches files; the CLI does that.
