//! The textual representation of HTML documents: the document model, the parser
//! (text to model) and the canonical writer (model to text).
//!
//! This crate owns the text format and the model. It knows nothing of HTML:
//! mapping the model to and from markup is `htmlio`'s job.
