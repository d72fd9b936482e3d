//! Seed 002 §2.5.2–2.5.3: parsing and resolving URLs as the 2008 draft
//! says (RFC 3986 with the draft's exceptions). Not written yet.
