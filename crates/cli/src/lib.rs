//! The command-line definition of `pagetext`, and nothing else.
//!
//! The `pagetext` binary does the work; this library target only holds the
//! clap structures that describe its commands and options, so that the man
//! page (`cargo xtask man`) and the shell completions (`pagetext completions`)
//! are generated from the very definition the binary parses. It does no I/O.
//!
//! ```
//! use clap::Parser;
//! use pagetext::{Cli, Command};
//!
//! let cli = Cli::try_parse_from(["pagetext", "to-text", "page.html", "-o", "page.txt"])?;
//! assert!(matches!(cli.command, Command::ToText(_)));
//!
//! // The same definition renders the man page and the completions.
//! let cmd = pagetext::command();
//! assert_eq!(cmd.get_name(), "pagetext");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

/// The extension of files in the text format, without the dot.
pub const TEXT_EXTENSION: &str = "txt";

/// The extensions a directory walk picks up as HTML input, without the dot.
pub const HTML_EXTENSIONS: &[&str] = &["html", "htm", "xhtml"];

/// The extension of the XHTML or HTML files that `to-html` writes.
pub const HTML_OUTPUT_EXTENSION: &str = "html";

const TOP_LONG_ABOUT: &str = "\
Turn web pages into editable wiki-like text and back into clean XHTML 1.0.

pagetext reads HTML in any charset and of any quality, keeps what matters
(structure, text, links, metadata) in a small text format that is pleasant to
edit, and writes that text back as well-formed XHTML 1.0. Nothing is lost
silently: whatever the text format cannot hold is reported as a diagnostic.

Files in the text format end in .txt. HTML inputs are .html, .htm or .xhtml
files; a directory given as INPUT is walked recursively for the right
extension (hidden files and directories are skipped). `-` reads standard input,
and so does giving no INPUT at all.

Output goes to standard output for a single input. `-o FILE` writes one file,
`-o DIR` mirrors the input tree into DIR with the output extension. Every
write is atomic (a temporary file in the same directory, then a rename; the
next run writing there removes those a killed run left), and only
`fmt --in-place` ever replaces an input.

Exit status: 0 on success; 1 when some input failed, had errors (with
--strict: warnings too), `fmt --check` found files to reformat, `micro`
found VALUE invalid or standard output could not be written; 2 on usage
errors. A failing input never stops the others, and a closed standard output
(`| head`) ends the run quietly.

Words used here: the seed is the set of specifications pagetext implements
(docs/seeds.md): the text format as first defined (seed 000) and the HTML5
drafts of 2007 and 2008 (seeds 001 to 004). Seed text is text that uses only
what that first definition has, without pagetext's extensions (`#Escape \\`,
`#Extend image`, `table`, `break`...), so any reader of the format reads it
alike (`--seed` writes it). Seed rule 3 is the format's third inline rule: a
markup character counts only at the edge of a word (`foo*bar*` is no strong
emphasis).";

const TOP_EXAMPLES: &str = "\
Examples:
  pagetext demo                          the whole idea on a bundled sample page
  pagetext to-text page.html             HTML -> text, printed
  pagetext to-text site/ -o text/        a whole site, mirrored into text/
  pagetext to-html page.txt -o page.html text -> XHTML 1.0
  pagetext fmt --check notes/            which text files are not canonical?
  pagetext check page.txt                diagnostics only
  pagetext sniff old.html                which charset, and why
  pagetext micro date 2004-06-30         what a microsyntax parser makes of a value";

const TO_TEXT_EXAMPLES: &str = "\
Examples:
  pagetext to-text page.html                     print the text of one page
  pagetext to-text page.html -o page.txt         write it to a file
  pagetext to-text site/ -o text/ -j 4           site/a/b.html -> text/a/b.txt, 4 threads
  curl -s URL | pagetext to-text --charset koi8-r   the transport said koi8-r
  pagetext to-text --strict --json site/ -o out/    CI: any loss fails the run
  pagetext to-text --warc crawl.warc.gz -o pages.jsonl -j 4   a crawl: one JSON line per HTML page";

const TO_HTML_EXAMPLES: &str = "\
Examples:
  pagetext to-html page.txt                       print XHTML 1.0 (UTF-8)
  pagetext to-html page.txt -o page.html          write it to a file
  pagetext to-html text/ -o www/                  text/a/b.txt -> www/a/b.html
  pagetext to-html --encoding windows-1252 page.txt   legacy charset, character references for the rest
  pagetext to-html --html --omit-optional-tags page.txt   HTML syntax, lean
  pagetext to-html --onto page.html page.txt -o new.html  the edited text onto its page";

const FMT_EXAMPLES: &str = "\
Examples:
  pagetext fmt page.txt              print the canonical form
  pagetext fmt --in-place notes/     rewrite every .txt file under notes/ that is not canonical
  pagetext fmt --check notes/        list the files that are not canonical; exit 1 if any";

const CHECK_EXAMPLES: &str = "\
Examples:
  pagetext check page.txt                parse text and report diagnostics
  pagetext check site/                   .txt files as text, .html/.htm/.xhtml as HTML
  pagetext check --from html - < page    standard input read as HTML
  pagetext check --strict --json docs/   for CI: warnings fail, one JSON object per file
  pagetext check --links site/           links to missing pages or anchors in the site";

const SNIFF_EXAMPLES: &str = "\
Examples:
  pagetext sniff old.html
  pagetext sniff --content-type 'text/html; charset=iso-8859-2' page.html
  pagetext sniff --default-encoding shift_jis old.html   as a browser set to Japanese would
  pagetext sniff --rules seed2007 old.html               the 2007 draft's steps
  pagetext sniff --json *.html | jq -r .encoding";

const MICRO_EXAMPLES: &str = "\
Examples:
  pagetext micro integer '  -42abc'
  pagetext micro --json duration 'PT1H30M'
  pagetext micro float -- -1.5e3
  pagetext micro --seed float '+1.5'             the 2008 draft's rules
  pagetext micro --in-content date-or-time ' 2004-06-30T12:00Z'   as in element content";

const EDIT_EXAMPLES: &str = "\
Examples:
  pagetext edit site/                 serve site/ on a free loopback port
  pagetext edit --open                the current directory, in the system browser
  pagetext edit --port 8040 site/     a fixed port (0: any free one)

Security: the server listens on 127.0.0.1 only. Every request must carry the
secret token of the printed address, name this machine as its Host (no DNS
rebinding) and, when it changes anything, come from the editor's own Origin.
Files are served and saved inside DIR only: `..`, absolute paths, encoded
slashes, hidden files and symbolic links that lead out of DIR are refused.
Every file is reached through a handle on DIR held from its root down, so a
program that swaps a file or folder for a link meanwhile cannot lead the
editor out; FIFOs and devices are refused without waiting on them. The
preview cannot run scripts or open connections (#Link:preconnect, prefetch,
dns-prefetch, prerender and preload lines are left out of it), links that
could run a script are written as their text, and the site's own files are
served sandboxed. An HTML page is previewed as a save writes it, in its own
template and styles (\"The page as saved\"; off: the text's XHTML): its
scripts, event handlers, frames, objects, resource hints, refreshes and <base>
are left out, and nothing but the site's own files under the editor's address
is fetched.

Saving: the text is written onto the HTML page it was read from (as
`to-html --onto` writes it): only what was edited changes, and everything else
(the template, classes, styles, scripts, DOCTYPE) keeps its bytes; the page
keeps its charset, with character references for characters it lacks. A save
with no edit writes nothing. A .txt page is written as canonical text. Writes are
atomic. The first save of an HTML page keeps the original as PAGE.orig, created
exclusively once it is copied whole; when that name holds anything else (a
link, a folder) the save is refused and says why. A page changed on disk since
it was opened is never overwritten without asking: the editor shows both
versions. The version is checked again on the file about to be replaced, right
before it is replaced; only a program that writes into the page in place at
that very moment goes unseen (no lock can stop a program that takes none). A
temporary file a killed save left is removed at the next save in its folder.

Site-wide changes: \"Find in site\" replaces only the places ticked, each page
written as a save writes it; a page changed since the search is refused.
\"Rename/move\" moves a page (never over anything, never out of DIR) and
rewrites every link to it and its own relative links, changing only the URLs
(in HTML, only the href bytes); when any write fails, every file is put back.

While editing: the preview scrolls in step with the text, block by block (the
\"Scroll in step\" box turns it off), and \"Image\" inserts one of the site's
images, picked from thumbnails, with its alternative text, at the cursor.";

/// Turn web pages into editable wiki-like text and back into clean XHTML 1.0.
#[derive(Debug, Parser)]
#[command(
    name = "pagetext",
    version,
    about,
    long_about = TOP_LONG_ABOUT,
    after_long_help = TOP_EXAMPLES,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    /// How much to say on standard error, and in which colours.
    #[command(flatten)]
    pub display: DisplayArgs,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options that govern what `pagetext` prints on standard error.
#[derive(Debug, Clone, Args)]
pub struct DisplayArgs {
    /// Print errors only: no warnings, no progress, no summary line.
    ///
    /// Without -q or -v, a run of one input that goes well prints nothing on
    /// standard error; a run of several ends with a summary line (files,
    /// bytes, time, pages per second, diagnostics), which -v adds to a run of
    /// one.
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        display_order = 90
    )]
    pub quiet: bool,

    /// Also print notes, the encoding of each input and each file written.
    #[arg(
        short,
        long,
        global = true,
        display_order = 91,
        long_help = "Also print notes, the encoding of each input and each file written, the \
                     summary line of a run of one input, and every diagnostic (without it, an \
                     input shows the first 3 of each kind in full, then one line counting the \
                     rest)"
    )]
    pub verbose: bool,

    /// When to colour diagnostics.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, display_order = 92)]
    pub color: ColorChoice,
}

/// `to-text --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormatArg {
    /// The text format.
    Text,
    /// Plain text: what a reader sees, no markup.
    Plain,
    /// CommonMark with GFM tables.
    Markdown,
}

/// When to use colours on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when standard error is a terminal and NO_COLOR is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Convert HTML pages (any charset) to the text format.
    #[command(after_long_help = TO_TEXT_EXAMPLES)]
    ToText(ToTextArgs),

    /// Convert text files to XHTML 1.0 (or the HTML syntax).
    #[command(after_long_help = TO_HTML_EXAMPLES)]
    ToHtml(ToHtmlArgs),

    /// Rewrite text files in canonical form.
    ///
    /// Without options the canonical text of a single input is printed.
    /// `--in-place` rewrites the files that are not canonical (and only those,
    /// and never one whose rewrite would drop anything: warnings are errors),
    /// `-o` writes the canonical text elsewhere, and `--check` only lists the
    /// files that are not canonical, exiting with 1 if there are any.
    #[command(after_long_help = FMT_EXAMPLES)]
    Fmt(FmtArgs),

    /// Parse inputs and report diagnostics only; write nothing.
    ///
    /// Files ending in .html, .htm or .xhtml are read as HTML (the diagnostics
    /// say what converting them would lose); everything else, standard input
    /// included, is read as text unless `--from` says otherwise.
    #[command(after_long_help = CHECK_EXAMPLES)]
    Check(CheckArgs),

    /// Tell which character encoding an HTML file is in, how sure that is, and why.
    ///
    /// Prints one line per file: the encoding's WHATWG name, the confidence
    /// (certain or tentative) and its source (byte order mark, transport
    /// layer, a <meta> found by the prescan, an XML declaration,
    /// autodetection, the default, or the default you chose with
    /// --default-encoding).
    #[command(after_long_help = SNIFF_EXAMPLES)]
    Sniff(SniffArgs),

    /// Show what an HTML microsyntax parser makes of a value.
    ///
    /// Prints whether VALUE is a valid string of that kind and what the
    /// parsing rules return for it (which can be a value even when VALUE is
    /// not valid, as browsers are lenient). Exits with 0 when VALUE is valid,
    /// 1 when it is not. Put `--` before a VALUE that starts with `-` if it
    /// could be taken for an option.
    #[command(after_long_help = MICRO_EXAMPLES)]
    Micro(MicroArgs),

    /// Edit a site's pages as text in the browser, with a live preview.
    ///
    /// Serves DIR (default: the current directory) to a web editor on
    /// this machine only, and prints the editor's address, which holds a
    /// secret token, on standard output; runs until Ctrl-C. The editor lists
    /// the site's pages (.html, .htm, .xhtml, .txt), shows a page as text
    /// (long lines wrapped) with its diagnostics and near-miss hints as you
    /// type, what was lost on the way in, and a live XHTML preview that
    /// scrolls with the text; "Format" (F1) shows the text format in brief;
    /// links to other pages of the site open them in the editor.
    #[command(after_long_help = EDIT_EXAMPLES)]
    Edit(EditArgs),

    /// Convert a sample page bundled in the binary and show each step.
    ///
    /// The sample is a small organisation's page in windows-1252 with a
    /// table, lists, links and accented text. The demo shows how its charset
    /// is found, the text it becomes and the XHTML that text becomes.
    Demo,

    /// Print a shell completion script to standard output.
    ///
    /// For example, for bash: `pagetext completions bash >
    /// ~/.local/share/bash-completion/completions/pagetext`.
    Completions {
        /// The shell to write the script for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Options shared by every command that runs over many inputs.
#[derive(Debug, Clone, Args)]
pub struct BatchArgs {
    /// Files, directories (walked recursively) or `-` for standard input.
    /// Nothing means standard input.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// How many inputs to convert at once [default: one per CPU core, as
    /// many as this process may use]. `-j 1` converts one at a time. The
    /// summary line gives pages per second and pages per second per core:
    /// that rate divided by the workers used (N, or fewer when there are
    /// fewer inputs).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Print one JSON object per input on standard output (path, result,
    /// encoding, diagnostics, timings; the output itself when no -o is given).
    #[arg(long)]
    pub json: bool,

    /// Treat warnings (each one is a reported loss) as errors: the input
    /// fails and its output is not written.
    #[arg(long)]
    pub strict: bool,

    /// Also take files with this extension when walking a directory
    /// (repeat it or separate by commas: --ext php,shtml). A walk says what
    /// it passed over that may be pages (.php, .shtml, files without an
    /// extension...); a file given by name is read whatever its name.
    #[arg(long, value_name = "EXT", value_delimiter = ',')]
    pub ext: Vec<String>,
}

/// Options of `to-text`.
#[derive(Debug, Clone, Args)]
pub struct ToTextArgs {
    /// Where to write: a file for one input, or a directory that mirrors the
    /// input tree with .txt files. Default: standard output (one input only).
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// The charset the transport layer gave (an HTTP Content-Type charset),
    /// as an encoding label; it overrides <meta> and autodetection, not a
    /// byte order mark.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding_label)]
    pub charset: Option<&'static encoding_rs::Encoding>,

    /// Keep links with javascript:, vbscript: and data: URLs (by default the
    /// link is dropped, its text kept, and a warning says so).
    #[arg(long)]
    pub keep_unsafe_links: bool,

    /// Write pure seed text, which any reader of the seed's format reads
    /// exactly: no extension is declared or used. Images become their
    /// alternative text and SVG graphics are left out, each with a
    /// warning. Literal markup characters (`__init__`, `'quoted'`, a line
    /// that looks like a bullet, a heading or a rule) are written as what
    /// they read as, with a not-round-trip diagnostic for each place,
    /// instead of being escaped (`#Escape \`). A list item, blockquote or
    /// definition that opens with a list, preformatted text or a
    /// blockquote is repaired as the seed allows, instead of written after
    /// a bare opener (`#Extend open`). By default the text uses the
    /// extensions a page needs and declares them (docs/format.md, sections
    /// 6 to 9). `--no-escape` is the old name of this option.
    #[arg(long = "seed", alias = "no-escape")]
    pub no_escape: bool,

    /// Keep only each page's main content: the article, without the
    /// navigation, banners, sidebars, footers, forms, comments, share and
    /// related-links blocks around it, chosen on the page's own landmarks
    /// (main, article, role, itemprop=articleBody), its class names, and
    /// the density of its text and links; the title heading just before
    /// the article stays, unless it repeats the page's <title>, which the
    /// header's #Title holds. The text is still the format, with its header.
    /// What is dropped is reported: how many parts of which kinds (nav,
    /// footer, link-list, low-text...), in a main-content note per page
    /// (shown with -v and in --json), in the summary line, and as a
    /// main_content object on each --warc line. A page where no part
    /// stands out is kept whole. Without it, the whole page.
    #[arg(long)]
    pub main_content: bool,

    /// Read the inputs as WARC files (plain or gzip, as crawlers write
    /// them; `-` is standard input) and write one JSON line per HTML
    /// response record: url, date, status, media_type, encoding,
    /// encoding_source, title, lang
    /// (as declared), detected_lang and detected_lang_confidence (from the
    /// text), text, warnings, errors (and main_content with
    /// --main-content). The HTTP Content-Type charset is the
    /// transport layer's, the record's URL the page's address. Other
    /// records are skipped and counted; an unreadable one is reported with
    /// its offset and the run goes on. -o names the output file; -j N
    /// converts N records at once (default: one per CPU core) and keeps
    /// their order.
    #[arg(long, conflicts_with_all = ["charset", "base", "json", "strict"])]
    pub warc: bool,

    /// What to write: `text`, the text format (which to-html turns back
    /// into XHTML); `plain`, what a reader sees: no markup and no header,
    /// link URLs left out, images as their alternative text, headings,
    /// paragraphs and list items on lines of their own, a table's rows as
    /// lines of cells set apart by tabs; or `markdown`, CommonMark with GFM
    /// tables, escaped so that a CommonMark reader reads the page's words.
    /// Neither is read back. With --warc, each line's `text` is in this
    /// format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TextFormatArg::Text)]
    pub format: TextFormatArg,

    /// With --warc: convert only the responses of these HTTP statuses,
    /// codes or classes (--status 200, --status 2xx,404). Default: every
    /// HTML response, each line with its `status` (a 404 page says so).
    #[arg(long, value_name = "CODES", value_delimiter = ',', requires = "warc")]
    pub status: Vec<String>,

    /// How the page's encoding is found.
    #[command(flatten)]
    pub sniffing: SniffingArgs,

    /// Where the pages live, for their relative links.
    #[command(flatten)]
    pub address: AddressArgs,

    /// Inputs and batch options.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Where HTML inputs live on the web (`to-text`, `check`).
#[derive(Debug, Clone, Args)]
pub struct AddressArgs {
    /// The page's own address, an absolute URL such as
    /// `https://example.com/docs/page.html`. The text format has no base
    /// URL, so relative links are resolved against it (or against the
    /// page's `<base href>`, itself resolved against it) to keep pointing
    /// where they did. For a directory, URL is the directory's address and
    /// each page's is URL joined with its path below the directory. Without
    /// --base or a `<base href>`, relative links stay as written.
    #[arg(long = "base", value_name = "URL", value_parser = parse_address)]
    pub base: Option<&'static microsyntax::url::Url>,
}

/// How the encoding of HTML inputs is found (`sniff`, `to-text`, `check`).
#[derive(Debug, Clone, Args)]
pub struct SniffingArgs {
    /// The encoding to assume when nothing says which one a page is in (no
    /// byte order mark, transport charset, <meta> or XML declaration), as a
    /// browser set to that default would (its locale's, or a parent
    /// frame's). Autodetection is then off. An encoding label, e.g.
    /// windows-1252, shift_jis, koi8-r.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding_label)]
    pub default_encoding: Option<&'static encoding_rs::Encoding>,

    /// Which version of the sniffing rules runs: the living standard, as
    /// browsers do, or the 2007 draft the text format was specified with
    /// (the transport charset above a byte order mark, <meta
    /// content="...; charset=..."> read without http-equiv, no XML
    /// declaration step, a prescan without a byte limit).
    #[arg(long, value_enum, value_name = "RULES", default_value_t = SniffRules::Standard)]
    pub rules: SniffRules,
}

/// The versions of the encoding sniffing rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SniffRules {
    /// The living HTML standard (what browsers do).
    Standard,
    /// The HTML5 draft of October 2007 (seed 001), to the letter.
    #[value(name = "seed2007")]
    Seed2007,
}

impl SniffRules {
    /// The `sniff` crate's rules.
    pub fn rules(self) -> sniff::Rules {
        match self {
            SniffRules::Standard => sniff::Rules::Standard,
            SniffRules::Seed2007 => sniff::Rules::Seed2007,
        }
    }
}

/// Options of `to-html`.
#[derive(Debug, Clone, Args)]
pub struct ToHtmlArgs {
    /// Where to write: a file for one input, or a directory that mirrors the
    /// input tree with .html files. Default: standard output (one input only).
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// The output charset, as an encoding label [default: UTF-8]. Characters
    /// it cannot represent are written as numeric character references.
    #[arg(long, value_name = "LABEL", value_parser = parse_output_encoding_label)]
    pub encoding: Option<&'static encoding_rs::Encoding>,

    /// Write the text onto the page it was read from (`to-text PAGE`, then
    /// edited), changing only what was edited: the page's bytes where the
    /// text is unchanged (its template, classes, scripts, DOCTYPE and
    /// charset), the edit where it is. An unchanged text gives back PAGE
    /// exactly. An edited word replaces only its characters; an edited
    /// block is written inside its element, with the start tag kept; a
    /// new block goes beside its neighbour in the page's syntax (HTML or
    /// XHTML); a deleted block's element goes. Characters the page's
    /// charset lacks become character references. One input only. The
    /// text is compared with what `to-text PAGE` gives with the default
    /// options.
    #[arg(long, value_name = "PAGE", conflicts_with_all = ["html", "encoding", "tables", "doctype"])]
    pub onto: Option<PathBuf>,

    /// Write the HTML syntax (with <!DOCTYPE html>) instead of XHTML 1.0.
    #[arg(long)]
    pub html: bool,

    /// With --html, leave out the start and end tags the HTML syntax allows
    /// to omit.
    #[arg(long, requires = "html")]
    pub omit_optional_tags: bool,

    /// Write a compact definition list that has the shape of a regular grid
    /// (the text format's emulated table, which is what `to-text` makes of a
    /// page's table) as a real <table>; an empty term `::` is an empty cell,
    /// and a first row of strong cells becomes the header. Reading that
    /// table back gives the same text. Without it
    /// the output is exactly the seed's: nested <dl compact>.
    #[arg(long)]
    pub tables: bool,

    /// Begin the XHTML with the XHTML 1.0 Transitional DOCTYPE, so that
    /// browsers render it in standards mode and validators know its DTD.
    /// Without it the output has none, as the seed says (and browsers
    /// render it in quirks mode). The HTML syntax (--html) always has
    /// <!DOCTYPE html>.
    #[arg(long, conflicts_with = "html")]
    pub doctype: bool,

    /// Inputs and batch options.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Options of `fmt`.
#[derive(Debug, Clone, Args)]
pub struct FmtArgs {
    /// Where to write: a file for one input, or a directory that mirrors the
    /// input tree. Default: standard output (one input only).
    #[arg(short, long, value_name = "PATH", conflicts_with_all = ["in_place", "check"])]
    pub output: Option<PathBuf>,

    /// Rewrite each input that is not canonical (atomically; canonical files
    /// are left untouched). A file whose rewrite would lose something (any
    /// warning) is left as it is and counts as failed.
    #[arg(short, long, conflicts_with = "check")]
    pub in_place: bool,

    /// Write nothing; list the inputs that are not canonical on standard
    /// output and exit with 1 if there is any.
    #[arg(long)]
    pub check: bool,

    /// Write pure seed text: drop a document's declarations (`#Escape \`,
    /// `#Extend image`, `#Extend open`) and what they let it say. Images
    /// become their alternative text (with a warning); literal markup
    /// characters that needed a backslash (`__init__`, a line of text that
    /// looks like a bullet) are written as what they read as, with a
    /// not-round-trip diagnostic for each place; containers written after
    /// a bare opener are repaired as the seed allows. By default `fmt`
    /// keeps a document's choice: declared text stays declared, seed text
    /// stays seed text (docs/format.md, sections 6 to 9). `--no-escape` is
    /// the old name of this option.
    #[arg(long = "seed", alias = "no-escape")]
    pub no_escape: bool,

    /// Inputs and batch options.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Options of `check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Read every input as this format instead of deciding by extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: Option<InputFormat>,

    /// The transport charset for HTML inputs (as in `to-text --charset`).
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding_label)]
    pub charset: Option<&'static encoding_rs::Encoding>,

    /// How the encoding of HTML inputs is found.
    #[command(flatten)]
    pub sniffing: SniffingArgs,

    /// Where the pages live, for their relative links.
    #[command(flatten)]
    pub address: AddressArgs,

    /// Check HTML inputs as `to-text --main-content` converts them: only
    /// the main content's losses are reported, with a note of what was
    /// dropped as boilerplate.
    #[arg(long, conflicts_with = "links")]
    pub main_content: bool,

    /// Check the links between the pages of each folder given (a site)
    /// instead: every link to a file of the folder that does not exist, or
    /// to an anchor its target page lacks, is printed as
    /// `PAGE:LINE:COLUMN: broken link URL: what is missing` (no column for
    /// HTML pages; a JSON object
    /// per link with --json), and the run fails when there is one. Links
    /// to other sites (a scheme or a host) are not followed.
    #[arg(long)]
    pub links: bool,

    /// Inputs and batch options.
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// The two formats pagetext reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// The wiki-like text format (UTF-8).
    Text,
    /// HTML in any charset.
    Html,
}

/// Options of `sniff`.
#[derive(Debug, Clone, Args)]
pub struct SniffArgs {
    /// The HTML files to examine (`-` for standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// A Content-Type header value (e.g. 'text/html; charset=koi8-r') whose
    /// charset plays the transport layer's part.
    #[arg(long, value_name = "VALUE")]
    pub content_type: Option<String>,

    /// How the encoding is found.
    #[command(flatten)]
    pub sniffing: SniffingArgs,

    /// Print one JSON line per file: {"path", "encoding", "confidence",
    /// "source"}, and a "note" when the bytes look like binary data (a
    /// known signature, mostly control bytes): sniffing answers for any
    /// bytes.
    #[arg(long)]
    pub json: bool,
}

/// Options of `edit`.
#[derive(Debug, Clone, Args)]
pub struct EditArgs {
    /// The site to edit: a directory.
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// The loopback port to listen on; 0 picks any free port.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,

    /// Open the editor in the system browser.
    #[arg(long)]
    pub open: bool,

    /// Show HTML pages as pure seed text, which any reader of the seed's
    /// format reads exactly: images as their alternative text, no SVG
    /// graphics, no escapes, no `#Extend` declaration (as `to-text --seed`).
    /// Saving such a text drops what it does not hold. By default pages are
    /// shown with the extensions they need, so that a save keeps their
    /// images.
    #[arg(long)]
    pub seed: bool,
}

/// Options of `micro`.
#[derive(Debug, Clone, Args)]
pub struct MicroArgs {
    /// The microsyntax.
    #[arg(value_enum, value_name = "ALGORITHM")]
    pub algorithm: Algorithm,

    /// The value to parse, as it would appear in an attribute. Required
    /// unless --stdin is given (then it must be absent).
    #[arg(
        value_name = "VALUE",
        allow_hyphen_values = true,
        required = false,
        required_unless_present = "stdin",
        conflicts_with = "stdin",
        default_value_if("stdin", clap::builder::ArgPredicate::IsPresent, ""),
        hide_default_value = true
    )]
    pub value: String,

    /// Read VALUE from standard input, byte for byte (NUL characters and
    /// newlines included, a final newline too); it must be UTF-8.
    #[arg(long)]
    pub stdin: bool,

    /// Print one JSON line: {"algorithm", "input", "valid", "value",
    /// "error"}.
    #[arg(long)]
    pub json: bool,

    /// Use the 2008 draft's (seed 002's) variant of the algorithm, or for a
    /// few algorithms the 2007 draft's, where one exists.
    #[arg(long, conflicts_with = "seed004")]
    pub seed: bool,

    /// Use the 2007 draft's (seed 004's) variant of the algorithm; an
    /// error where the algorithm has none.
    #[arg(long)]
    pub seed004: bool,

    /// For date-or-time only: run its "in content" variant, which skips
    /// any Unicode White_Space character (e.g. U+3000 or U+00A0) where the
    /// attribute variant skips only space, tab, LF, FF and CR (with
    /// --seed004: Zs characters instead). Nothing else changes: other text
    /// around the date or time still makes the value invalid.
    #[arg(long)]
    pub in_content: bool,

    /// Resolve VALUE against this absolute URL (for `url`).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,

    /// For `enumerated` (required): the attribute's keywords, comma
    /// separated, matched ASCII case-insensitively, the first match
    /// winning (`true,,false` has an empty keyword).
    #[arg(long, value_name = "LIST", value_delimiter = ',', num_args = 1)]
    pub keywords: Option<Vec<String>>,

    /// For `enumerated`: the invalid value default (the state of a value
    /// that matches no keyword).
    #[arg(long, value_name = "STATE")]
    pub invalid_default: Option<String>,

    /// For `enumerated`: the missing value default (the state of a value
    /// that matches no keyword when there is no invalid value default).
    #[arg(long, value_name = "STATE")]
    pub missing_default: Option<String>,

    /// For `boolean` (required): the attribute's canonical name.
    #[arg(long, value_name = "NAME")]
    pub attribute: Option<String>,

    /// For `remove-token` (required): the token to remove.
    #[arg(long, value_name = "TOKEN", allow_hyphen_values = true)]
    pub token: Option<String>,

    /// For `compatibility-caseless` (required): the string to compare
    /// VALUE with.
    #[arg(long, value_name = "STRING", allow_hyphen_values = true)]
    pub other: Option<String>,
}

/// The microsyntaxes `micro` knows, by the names the microsyntax registry uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// Compatibility caseless match of VALUE and --other.
    CompatibilityCaseless,
    /// Boolean attribute's state and valid values (--attribute NAME).
    Boolean,
    /// Signed integer.
    Integer,
    /// Non-negative integer.
    NonNegativeInteger,
    /// Positive non-zero integer.
    PositiveNonZeroInteger,
    /// Floating-point number.
    Float,
    /// Ratio (the 2008 draft).
    Ratio,
    /// List of integers.
    Integers,
    /// List of floating-point numbers.
    Floats,
    /// Dimension value (length or percentage).
    Dimension,
    /// Non-zero dimension value.
    NonzeroDimension,
    /// List of dimensions.
    Dimensions,
    /// Date (YYYY-MM-DD).
    Date,
    /// Month (YYYY-MM).
    Month,
    /// Week (YYYY-Www).
    Week,
    /// Yearless date (MM-DD).
    YearlessDate,
    /// Time (HH:MM[:SS[.fff]]).
    Time,
    /// Local date and time.
    LocalDateTime,
    /// Time-zone offset.
    TimeZoneOffset,
    /// Global date and time.
    GlobalDateTime,
    /// Date with optional time.
    DateWithOptionalTime,
    /// The 2008 draft's datetime.
    Datetime,
    /// Date or time (attribute; --in-content for content).
    DateOrTime,
    /// Duration.
    Duration,
    /// Split on spaces.
    Tokens,
    /// Unordered set of unique space-separated tokens.
    UniqueTokens,
    /// Remove a token (--token) from a string.
    RemoveToken,
    /// Split on commas.
    Commas,
    /// Enumerated attribute's state and valid values (--keywords LIST).
    Enumerated,
    /// Hash-name reference (#name).
    HashNameReference,
    /// Simple color (#rrggbb).
    Color,
    /// Legacy color value.
    LegacyColor,
    /// URL: parsed into its components, resolved against --base if given
    /// (the URL Standard; --seed: the 2008 draft's RFC 3986 rules).
    Url,
}

impl Algorithm {
    /// The name the microsyntax registry and the user both use.
    pub fn name(self) -> String {
        match self.to_possible_value() {
            Some(v) => v.get_name().to_string(),
            None => String::new(),
        }
    }
}

/// The whole command-line definition, as clap sees it (for the man page and
/// the completions).
pub fn command() -> clap::Command {
    Cli::command()
}

/// Resolves an encoding label by the Encoding Standard (so `latin1` is
/// windows-1252, as browsers have it).
/// `--base`: an absolute URL (kept for the whole run).
fn parse_address(value: &str) -> Result<&'static microsyntax::url::Url, String> {
    match microsyntax::url::Url::parse(value) {
        Ok(url) if url.cannot_be_a_base() => Err(format!(
            "{value:?} cannot be a base URL (a {}: URL has no path to resolve against)",
            url.scheme()
        )),
        // One URL per run: leaking it gives the batch's `Copy` jobs a
        // `'static` reference.
        Ok(url) => Ok(Box::leak(Box::new(url))),
        Err(e) => Err(format!(
            "{value:?} is not an absolute URL ({e}); give the page's full address, e.g. https://example.com/docs/page.html"
        )),
    }
}

fn parse_encoding_label(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
        "not an encoding label of the Encoding Standard (try utf-8, windows-1252, iso-8859-2, shift_jis...)"
            .to_string()
    })
}

/// Like [`parse_encoding_label`], for encodings a document can be written in:
/// UTF-16 and the replacement encoding cannot.
fn parse_output_encoding_label(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    let encoding = parse_encoding_label(label)?;
    if encoding.output_encoding() != encoding {
        return Err(format!(
            "{} cannot be an output encoding (an HTML document can only be written in an \
             ASCII-compatible encoding)",
            encoding.name()
        ));
    }
    Ok(encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definition_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn algorithm_names_are_the_registry_names() {
        assert_eq!(Algorithm::NonNegativeInteger.name(), "non-negative-integer");
        assert_eq!(Algorithm::NonzeroDimension.name(), "nonzero-dimension");
        assert_eq!(Algorithm::DateOrTime.name(), "date-or-time");
        assert_eq!(Algorithm::LegacyColor.name(), "legacy-color");
    }

    #[test]
    fn encoding_labels_follow_the_encoding_standard() {
        assert_eq!(
            parse_encoding_label("latin1").map(|e| e.name()),
            Ok("windows-1252")
        );
        assert_eq!(
            parse_encoding_label(" UTF8 ").map(|e| e.name()),
            Ok("UTF-8")
        );
        assert!(parse_encoding_label("no-such-charset").is_err());
        assert!(parse_output_encoding_label("utf-16le").is_err());
        assert!(parse_output_encoding_label("iso-2022-kr").is_err());
        assert_eq!(
            parse_output_encoding_label("shift_jis").map(|e| e.name()),
            Ok("Shift_JIS")
        );
    }

    #[test]
    fn negative_numbers_reach_micro_as_values() {
        let cli = Cli::try_parse_from(["pagetext", "micro", "integer", "-5"]).unwrap();
        let Command::Micro(m) = cli.command else {
            panic!("not micro")
        };
        assert_eq!(m.value, "-5");
        let cli =
            Cli::try_parse_from(["pagetext", "micro", "--json", "float", "--", "-x"]).unwrap();
        let Command::Micro(m) = cli.command else {
            panic!("not micro")
        };
        assert!(m.json);
        assert_eq!(m.value, "-x");
    }

    #[test]
    fn omit_optional_tags_needs_html() {
        assert!(Cli::try_parse_from(["pagetext", "to-html", "--omit-optional-tags"]).is_err());
        assert!(
            Cli::try_parse_from(["pagetext", "to-html", "--html", "--omit-optional-tags"]).is_ok()
        );
    }

    #[test]
    fn fmt_modes_exclude_each_other() {
        assert!(Cli::try_parse_from(["pagetext", "fmt", "--check", "-i", "a.txt"]).is_err());
        assert!(Cli::try_parse_from(["pagetext", "fmt", "--check", "-o", "x", "a.txt"]).is_err());
        assert!(Cli::try_parse_from(["pagetext", "fmt", "-i", "-o", "x", "a.txt"]).is_err());
    }

    #[test]
    fn jobs_must_be_positive() {
        assert!(Cli::try_parse_from(["pagetext", "check", "-j", "0"]).is_err());
        assert!(Cli::try_parse_from(["pagetext", "check", "-j", "3"]).is_ok());
    }
}
