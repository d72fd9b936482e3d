//! `pagetext micro ALGORITHM VALUE`: what an HTML microsyntax parser makes of
//! a value, through the `microsyntax` crate's registry of algorithms.
//!
//! Exit status: 0 when VALUE is a valid string of that kind, 1 when it is
//! not (the parsing rules may still return a value: browsers are lenient),
//! 2 when the algorithm has no variant for `--seed`, `--seed004` or
//! `--in-content`, takes no `--base` or other option given, lacks an option
//! it needs (`--keywords`, `--attribute`, `--token`, `--other`), or when
//! `--stdin` reads bytes that are not UTF-8.
//!
//! With `--stdin`, VALUE is standard input exactly as read: NUL characters
//! and newlines (a final one included) are part of it.

use std::io::{Read, Write};
use std::process::ExitCode;

use microsyntax::algorithms::{self, Options, Outcome, RunError, Spec, Value};
use pagetext::MicroArgs;
use serde::Serialize;

use crate::batch::Display;

/// The line `micro --json` prints.
#[derive(Serialize)]
struct MicroJson<'a> {
    algorithm: &'a str,
    input: &'a str,
    #[serde(flatten)]
    outcome: &'a Outcome,
}

pub(crate) fn run(args: &MicroArgs, display: Display) -> anyhow::Result<ExitCode> {
    let name = args.algorithm.name();
    let Some(algorithm) = algorithms::find(&name) else {
        return usage(
            display,
            &format!("the microsyntax library has no algorithm `{name}`"),
        );
    };
    let spec = if args.seed {
        match algorithm.seed_variant {
            Some(spec) => spec,
            None => {
                return usage(
                    display,
                    &format!(
                        "{name} has no separate seed variant: its default already follows {}",
                        algorithm.source
                    ),
                );
            }
        }
    } else if args.seed004 {
        if !algorithm.specs.contains(&Spec::Seed004) {
            return usage(
                display,
                &format!(
                    "{name} has no seed 004 (2007 draft) variant: its default follows {}",
                    algorithm.source
                ),
            );
        }
        Spec::Seed004
    } else {
        Spec::default()
    };
    let context = if args.in_content {
        microsyntax::Context::Content
    } else {
        microsyntax::Context::Attribute
    };
    let base = args.base.as_deref();
    if base.is_some() && !algorithm.takes_base {
        return usage(
            display,
            &format!("--base is for `url`: {name} resolves nothing against a base URL"),
        );
    }
    let stdin_value;
    let input: &str = if args.stdin {
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes)?;
        stdin_value = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                return usage(
                    display,
                    &format!("--stdin: standard input is not UTF-8 (invalid byte at offset {at})"),
                );
            }
        };
        &stdin_value
    } else {
        &args.value
    };
    let keywords: Option<Vec<&str>> = args
        .keywords
        .as_ref()
        .map(|k| k.iter().map(String::as_str).collect());
    let options = Options {
        spec,
        context,
        base,
        keywords: keywords.as_deref(),
        invalid_default: args.invalid_default.as_deref(),
        missing_default: args.missing_default.as_deref(),
        attribute: args.attribute.as_deref(),
        token: args.token.as_deref(),
        other: args.other.as_deref(),
    };
    let outcome = match algorithm.run(options, input) {
        Ok(outcome) => outcome,
        Err(RunError::MissingOption(name, extra)) => {
            return usage(display, &format!("{name} needs --{}", extra.name()));
        }
        Err(RunError::UnsupportedOption(name, extra)) => {
            return usage(
                display,
                &format!("--{} is not an option of {name}", extra.name()),
            );
        }
        Err(e) => return usage(display, &e.to_string()),
    };
    let mut out = crate::stdout::lock();
    if args.json {
        let line = crate::batch::json_line(&MicroJson {
            algorithm: &name,
            input,
            outcome: &outcome,
        })?;
        writeln!(out, "{line}")?;
    } else {
        let value = match &outcome.value {
            Some(Value::Url(_)) => "the URL's components:".to_string(),
            Some(value) => serde_json::to_string(value)?,
            None if outcome.error.is_some() => {
                "none (the parsing rules return an error)".to_string()
            }
            None => "none (the parsing rules return nothing)".to_string(),
        };
        let variant = if args.seed || args.seed004 {
            format!(" ({} variant)", spec.name())
        } else {
            String::new()
        };
        writeln!(out, "algorithm: {name}{variant}: {}", algorithm.title)?;
        writeln!(out, "source:    {}", algorithm.source)?;
        writeln!(out, "input:     {}", quoted(input))?;
        writeln!(
            out,
            "valid:     {}",
            if outcome.valid { "yes" } else { "no" }
        )?;
        writeln!(out, "value:     {value}")?;
        if let Some(Value::Url(parts)) = &outcome.value {
            let components = [
                ("href:", Some(parts.href.as_str())),
                ("scheme:", parts.scheme.as_deref()),
                ("host:", parts.host.as_deref()),
                ("port:", parts.port.as_deref()),
                ("path:", Some(parts.path.as_str())),
                ("query:", parts.query.as_deref()),
                ("fragment:", parts.fragment.as_deref()),
            ];
            for (label, value) in components {
                writeln!(out, "  {label:<9} {}", value.unwrap_or("(none)"))?;
            }
        }
        if let Some(error) = &outcome.error {
            writeln!(out, "error:     {error}")?;
        }
    }
    out.flush()?;
    Ok(if outcome.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `input` in double quotes with Rust's escapes, except that NUL is
/// `\u{0}` (Rust writes `\0`, which reads as an octal escape before a
/// digit: `"\07"`).
fn quoted(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + 2);
    out.push('"');
    for c in input.chars() {
        match c {
            '\0' => out.push_str("\\u{0}"),
            '\'' => out.push('\''),
            _ => out.extend(c.escape_debug()),
        }
    }
    out.push('"');
    out
}

fn usage(display: Display, text: &str) -> anyhow::Result<ExitCode> {
    crate::say(&crate::message(display.color, text));
    Ok(ExitCode::from(2))
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    /// Every name the CLI offers is one the registry knows, and the other
    /// way round.
    #[test]
    fn the_cli_offers_exactly_the_registry() {
        let cli: Vec<String> = pagetext::Algorithm::value_variants()
            .iter()
            .map(|a| a.name())
            .collect();
        let registry: Vec<String> = microsyntax::algorithms::ALGORITHMS
            .iter()
            .map(|a| a.name.to_string())
            .collect();
        assert_eq!(cli, registry);
    }

    #[test]
    fn inputs_are_quoted_unambiguously() {
        assert_eq!(super::quoted("\u{0}7\n"), r#""\u{0}7\n""#);
        assert_eq!(super::quoted(r#"a"b'c\d"#), r#""a\"b'c\\d""#);
        assert_eq!(super::quoted("é\t"), r#""é\t""#);
    }
}
