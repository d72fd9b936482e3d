//! Determining the character encoding of an HTML document, decoding it, and
//! preprocessing the input stream (HTML5 draft 2007, section 8.2.2, with the
//! later standard's refinements as the default).
//!
//! This crate owns bytes-to-text: it knows byte order marks, transport-layer
//! charsets, the `<meta>` prescan, autodetection and decoding. It does not parse
//! HTML beyond the prescan and never touches the document model.
