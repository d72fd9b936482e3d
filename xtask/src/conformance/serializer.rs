//! html5lib-tests `serializer/*.test` against `htmlio::serialize`.
//!
//! Each test is a token stream, options and a list of acceptable outputs.
//! The tokens become `htmlio::serialize::Token`s, the options start from
//! html5lib's defaults (`HtmlOptions::html5lib`) with attributes sorted by
//! name (html5lib's own runner sorts them too), and each option maps to the
//! field of the same meaning:
//!
//! | html5lib option | `HtmlOptions` |
//! |---|---|
//! | `quote_attr_values: true` | `quoting: AttrQuoting::Always` |
//! | `quote_char` | `quote_char: QuoteChar::Single / Double` |
//! | `use_trailing_solidus` | `trailing_solidus` |
//! | `minimize_boolean_attributes` | `minimize_boolean_attributes` |
//! | `escape_lt_in_attrs` | `escape_lt_in_attrs` |
//! | `escape_rcdata` | `escape_raw_text` |
//! | `strip_whitespace` | `strip_whitespace` |
//! | `inject_meta_charset` + `encoding` | `inject_meta_charset: Some(encoding)` |
//! | `encoding` | output encoded with `htmlio::serialize::encode` |
//!
//! A few expectations contradict the reference's optional-tag rules (they come
//! from earlier drafts). Those cases are listed in [`CONFLICTS`] with the
//! output the rules require; when we produce exactly that output the case is
//! reported as skipped with the reason, otherwise it fails.

use std::borrow::Cow;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use htmlio::serialize::{
    self, AttrQuoting, Attribute, Doctype, EndTag, HtmlOptions, Namespace, QuoteChar, StartTag,
    Token,
};

use super::SuiteReport;

/// Cases whose expectation the reference (HTML 5.2 §8.1.2.4) does not allow:
/// file, description, the output the rules give, why.
const CONFLICTS: &[(&str, &str, &str, &str)] = &[
    (
        "optionaltags",
        "p end-tag followed by datagrid start-tag",
        "</p><datagrid>",
        "expects </p> omitted before <datagrid>: not in the reference's list of elements that \
         close a p, and an HTML parser would put the datagrid inside the p",
    ),
    (
        "optionaltags",
        "p end-tag followed by dialog start-tag",
        "</p><dialog>",
        "expects </p> omitted before <dialog>: an earlier draft's rule; the reference's list \
         (address ... ul) does not have dialog",
    ),
    (
        "optionaltags",
        "p end-tag followed by dir start-tag",
        "</p><dir>",
        "expects </p> omitted before <dir>: an earlier draft's rule; dir is obsolete and not in \
         the reference's list",
    ),
    (
        "optionaltags",
        "p end-tag followed by menu start-tag",
        "</p><menu>",
        "expects </p> omitted before <menu>: an earlier draft's rule; menu is not in the \
         reference's list",
    ),
    (
        "optionaltags",
        "tfoot end-tag followed by tbody start-tag",
        "</tfoot><tbody>",
        "expects </tfoot> omitted before <tbody> (or an empty tbody's start tag omitted): the \
         reference lets </tfoot> go only at the end of its parent, and an empty tbody keeps its \
         start tag",
    ),
];

/// `serializer/core.test`
pub(crate) fn core(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "core")
}

/// `serializer/optionaltags.test`
pub(crate) fn optionaltags(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "optionaltags")
}

/// `serializer/options.test`
pub(crate) fn options(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "options")
}

/// `serializer/whitespace.test`
pub(crate) fn whitespace(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "whitespace")
}

/// `serializer/injectmeta.test`
pub(crate) fn injectmeta(dir: &Path) -> anyhow::Result<SuiteReport> {
    run_file(dir, "injectmeta")
}

fn run_file(dir: &Path, stem: &str) -> anyhow::Result<SuiteReport> {
    let path = dir
        .join("html5lib-tests/serializer")
        .join(format!("{stem}.test"));
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let json = Json::parse(&text).with_context(|| format!("parsing {}", path.display()))?;
    let tests = json
        .get("tests")
        .and_then(Json::as_array)
        .ok_or_else(|| anyhow!("{}: no \"tests\" array", path.display()))?;
    let mut report = SuiteReport::default();
    for (i, test) in tests.iter().enumerate() {
        let description = test
            .get("description")
            .and_then(Json::as_str)
            .map_or_else(|| format!("test {i}"), str::to_owned);
        match run_case(test) {
            Err(CaseError::Skip(why)) => report.skipped.push((description, why)),
            Err(CaseError::Bad(e)) => report.failures.push(format!("{description}: {e:#}")),
            Ok((output, expected)) => {
                let conflict = CONFLICTS
                    .iter()
                    .find(|(file, d, _, _)| *file == stem && *d == description);
                if expected.contains(&output) {
                    if conflict.is_some() {
                        report.failures.push(format!(
                            "{description}: listed as a conflict but passes; remove it from CONFLICTS"
                        ));
                    } else {
                        report.passed += 1;
                    }
                } else if let Some((_, _, ours, why)) = conflict {
                    if output.as_slice() == ours.as_bytes() {
                        report.skipped.push((description, (*why).to_owned()));
                    } else {
                        report.failures.push(format!(
                            "{description}: got {:?}, wanted the rules' {ours:?}",
                            String::from_utf8_lossy(&output)
                        ));
                    }
                } else {
                    let wanted: Vec<_> = expected
                        .iter()
                        .map(|e| String::from_utf8_lossy(e).into_owned())
                        .collect();
                    report.failures.push(format!(
                        "{description}: got {:?}, expected one of {wanted:?}",
                        String::from_utf8_lossy(&output)
                    ));
                }
            }
        }
    }
    Ok(report)
}

enum CaseError {
    /// Not supported: the reason.
    Skip(String),
    /// The test data is not what we understand.
    Bad(anyhow::Error),
}

impl From<anyhow::Error> for CaseError {
    fn from(e: anyhow::Error) -> Self {
        CaseError::Bad(e)
    }
}

/// Runs one case: the output bytes and the acceptable outputs as bytes.
fn run_case(test: &Json) -> Result<(Vec<u8>, Vec<Vec<u8>>), CaseError> {
    let mut opts = HtmlOptions {
        sort_attributes: true,
        ..HtmlOptions::html5lib()
    };
    let mut encoding = None;
    let mut inject = false;
    if let Some(Json::Object(options)) = test.get("options") {
        for (key, value) in options {
            let flag = || {
                value
                    .as_bool()
                    .ok_or_else(|| anyhow!("option {key} is not a boolean"))
            };
            match key.as_str() {
                "quote_attr_values" => {
                    if flag()? {
                        opts.quoting = AttrQuoting::Always;
                    }
                }
                "quote_char" => {
                    opts.quote_char = match value.as_str() {
                        Some("'") => QuoteChar::Single,
                        Some("\"") => QuoteChar::Double,
                        other => return Err(anyhow!("quote_char {other:?}").into()),
                    }
                }
                "use_trailing_solidus" => opts.trailing_solidus = flag()?,
                "minimize_boolean_attributes" => opts.minimize_boolean_attributes = flag()?,
                "escape_lt_in_attrs" => opts.escape_lt_in_attrs = flag()?,
                "escape_rcdata" => opts.escape_raw_text = flag()?,
                "strip_whitespace" => opts.strip_whitespace = flag()?,
                "inject_meta_charset" => inject = flag()?,
                "encoding" => {
                    let label = value
                        .as_str()
                        .ok_or_else(|| anyhow!("encoding is not a string"))?;
                    let enc = htmlio::encoding_rs::Encoding::for_label(label.as_bytes())
                        .ok_or_else(|| anyhow!("unknown encoding label {label:?}"))?;
                    encoding = Some((label.to_owned(), enc));
                }
                other => return Err(CaseError::Skip(format!("option {other} is not supported"))),
            }
        }
    }
    if inject && let Some((label, _)) = &encoding {
        // html5lib injects only when an encoding is given.
        opts.inject_meta_charset = Some(label.clone());
    }
    let input = test
        .get("input")
        .and_then(Json::as_array)
        .ok_or_else(|| anyhow!("no input array"))?;
    let tokens = input
        .iter()
        .map(to_token)
        .collect::<Result<Vec<_>, CaseError>>()?;
    let markup = serialize::html(tokens, &opts);
    let expected = test
        .get("expected")
        .and_then(Json::as_array)
        .ok_or_else(|| anyhow!("no expected array"))?;
    let encode = |s: &str| -> Vec<u8> {
        match &encoding {
            Some((_, enc)) => serialize::encode(s, enc).0.into_owned(),
            None => s.as_bytes().to_vec(),
        }
    };
    let expected = expected
        .iter()
        .map(|e| {
            e.as_str()
                .map(&encode)
                .ok_or_else(|| anyhow!("an expected output is not a string"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((encode(&markup), expected))
}

fn namespace(uri: &Json) -> Result<Namespace, CaseError> {
    let uri = uri
        .as_str()
        .ok_or_else(|| anyhow!("namespace is not a string"))?;
    Namespace::from_uri(uri)
        .ok_or_else(|| CaseError::Skip(format!("elements in namespace {uri} are not supported")))
}

fn string(v: Option<&Json>, what: &str) -> Result<String, CaseError> {
    v.and_then(Json::as_str)
        .map(str::to_owned)
        .ok_or_else(|| CaseError::Bad(anyhow!("{what} is missing or not a string")))
}

/// Seed 003 §"Attributes": the names namespaced attributes are written with.
fn attributes(v: Option<&Json>) -> Result<Vec<Attribute<'static>>, CaseError> {
    let list = match v {
        Some(Json::Array(list)) => list.as_slice(),
        Some(Json::Object(map)) if map.is_empty() => &[],
        _ => return Err(anyhow!("attributes are neither a list nor {{}}").into()),
    };
    list.iter()
        .map(|a| {
            let name = string(a.get("name"), "attribute name")?;
            let value = string(a.get("value"), "attribute value")?;
            let name = match a.get("namespace") {
                None | Some(Json::Null) => name,
                Some(Json::String(ns)) => match ns.as_str() {
                    "http://www.w3.org/XML/1998/namespace" => format!("xml:{name}"),
                    "http://www.w3.org/1999/xlink" => format!("xlink:{name}"),
                    "http://www.w3.org/2000/xmlns/" if name == "xmlns" => name,
                    "http://www.w3.org/2000/xmlns/" => format!("xmlns:{name}"),
                    other => {
                        return Err(CaseError::Skip(format!(
                            "attributes in namespace {other} cannot be written in HTML"
                        )));
                    }
                },
                Some(_) => return Err(anyhow!("attribute namespace is not a string").into()),
            };
            Ok(Attribute::new(name, value))
        })
        .collect()
}

fn to_token(v: &Json) -> Result<Token<'static>, CaseError> {
    let parts = v
        .as_array()
        .ok_or_else(|| anyhow!("a token is not an array"))?;
    let kind = string(parts.first(), "token type")?;
    let token = match kind.as_str() {
        "StartTag" => Token::StartTag(StartTag {
            namespace: namespace(parts.get(1).unwrap_or(&Json::Null))?,
            name: Cow::Owned(string(parts.get(2), "tag name")?),
            attributes: attributes(parts.get(3))?,
            self_closing: false,
        }),
        "EmptyTag" => Token::StartTag(StartTag {
            namespace: Namespace::Html,
            name: Cow::Owned(string(parts.get(1), "tag name")?),
            attributes: attributes(parts.get(2))?,
            self_closing: true,
        }),
        "EndTag" => Token::EndTag(EndTag {
            namespace: namespace(parts.get(1).unwrap_or(&Json::Null))?,
            name: Cow::Owned(string(parts.get(2), "tag name")?),
        }),
        "Characters" => Token::Text(Cow::Owned(string(parts.get(1), "characters")?)),
        "Comment" => Token::Comment(Cow::Owned(string(parts.get(1), "comment")?)),
        "Doctype" => {
            let opt = |i: usize| {
                parts
                    .get(i)
                    .and_then(Json::as_str)
                    .map(|s| Cow::Owned(s.to_owned()))
            };
            Token::Doctype(Doctype {
                name: Cow::Owned(string(parts.get(1), "doctype name")?),
                public_id: opt(2),
                system_id: opt(3),
            })
        }
        other => return Err(anyhow!("unknown token type {other}").into()),
    };
    Ok(token)
}

// ---- a small JSON reader (xtask has no JSON dependency) -------------------

/// A JSON value. Objects keep their key order.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Deeper nesting than this is refused (the test files nest four levels).
const MAX_DEPTH: usize = 64;

impl Json {
    fn parse(text: &str) -> anyhow::Result<Json> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            bail!("trailing data at byte {}", p.i);
        }
        Ok(v)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

struct Parser<'s> {
    s: &'s [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b" \t\r\n".contains(b)) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8) -> anyhow::Result<()> {
        if self.eat(b) {
            Ok(())
        } else {
            bail!("expected {:?} at byte {}", b as char, self.i)
        }
    }

    fn value(&mut self, depth: usize) -> anyhow::Result<Json> {
        if depth > MAX_DEPTH {
            bail!("nesting deeper than {MAX_DEPTH}");
        }
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut map = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.ws();
                        let key = self.string()?;
                        self.expect(b':')?;
                        map.push((key, self.value(depth + 1)?));
                        if self.eat(b'}') {
                            break;
                        }
                        self.expect(b',')?;
                    }
                }
                Ok(Json::Object(map))
            }
            Some(b'[') => {
                self.i += 1;
                let mut list = Vec::new();
                if !self.eat(b']') {
                    loop {
                        list.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        self.expect(b',')?;
                    }
                }
                Ok(Json::Array(list))
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(_) => {
                let start = self.i;
                while self
                    .s
                    .get(self.i)
                    .is_some_and(|b| b"+-.eE0123456789".contains(b))
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i])?;
                Ok(Json::Number(text.parse().with_context(|| {
                    format!("bad number {text:?} at byte {start}")
                })?))
            }
            None => bail!("unexpected end of input"),
        }
    }

    fn word(&mut self, word: &str, v: Json) -> anyhow::Result<Json> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            bail!("bad literal at byte {}", self.i)
        }
    }

    fn hex4(&mut self) -> anyhow::Result<u32> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .ok_or_else(|| anyhow!("short \\u escape"))?;
        self.i += 4;
        Ok(u32::from_str_radix(std::str::from_utf8(digits)?, 16)?)
    }

    fn string(&mut self) -> anyhow::Result<String> {
        if self.s.get(self.i) != Some(&b'"') {
            bail!("expected a string at byte {}", self.i);
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.i) else {
                bail!("unterminated string");
            };
            self.i += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else {
                        bail!("unterminated escape");
                    };
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{FFFD}')
                        }
                        other => bail!("bad escape \\{}", other as char),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(b),
            }
        }
        Ok(String::from_utf8(out)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reader_reads_what_the_tests_use() {
        let v = Json::parse(r#"{"a": [1, "x\u000B\"\ud83d\ude00", null, true], "b": {}}"#).unwrap();
        assert_eq!(
            v.get("a").and_then(Json::as_array).unwrap()[1],
            Json::String("x\u{b}\"😀".into())
        );
        assert_eq!(v.get("b"), Some(&Json::Object(vec![])));
    }
}
