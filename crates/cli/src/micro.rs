//! `pagetext micro ALGORITHM VALUE`: what an HTML microsyntax parser makes of
//! a value, through the `microsyntax` crate's registry of algorithms.
//!
//! Exit status: 0 when VALUE is a valid string of that kind, 1 when it is
//! not (the parsing rules may still return a value: browsers are lenient),
//! 2 when the algorithm has no variant for `--seed` or `--in-content`, or
//! takes no `--base`.

use std::io::Write;
use std::process::ExitCode;

use microsyntax::algorithms::{self, Options, Outcome, Value};
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
    } else {
        algorithms::Spec::default()
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
    let options = Options {
        spec,
        context,
        base,
    };
    let outcome = match algorithm.run(options, &args.value) {
        Ok(outcome) => outcome,
        Err(e) => return usage(display, &e.to_string()),
    };
    let mut out = crate::stdout::lock();
    if args.json {
        let line = serde_json::to_string(&MicroJson {
            algorithm: &name,
            input: &args.value,
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
        let variant = if args.seed {
            format!(" ({} variant)", spec.name())
        } else {
            String::new()
        };
        writeln!(out, "algorithm: {name}{variant}: {}", algorithm.title)?;
        writeln!(out, "source:    {}", algorithm.source)?;
        writeln!(out, "input:     {:?}", args.value)?;
        writeln!(
            out,
            "valid:     {}",
            if outcome.valid { "yes" } else { "no" }
        )?;
        writeln!(out, "value:     {value}")?;
        if let Some(Value::Url(parts)) = &outcome.value {
            let none = "(none)";
            writeln!(out, "  href:     {}", parts.href)?;
            writeln!(
                out,
                "  scheme:   {}",
                parts.scheme.as_deref().unwrap_or(none)
            )?;
            writeln!(out, "  host:     {}", parts.host.as_deref().unwrap_or(none))?;
            writeln!(out, "  port:     {}", parts.port.as_deref().unwrap_or(none))?;
            writeln!(out, "  path:     {}", parts.path)?;
            writeln!(
                out,
                "  query:    {}",
                parts.query.as_deref().unwrap_or(none)
            )?;
            writeln!(
                out,
                "  fragment: {}",
                parts.fragment.as_deref().unwrap_or(none)
            )?;
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
}
