//! `mink-query [--scalar f32|f64] [--algo auto|gjk|epa|mpr|sat] FILE`
//! (FILE or `-` for stdin): answers every line of a JSON Lines query file
//! (`shared/query-format.md`), one result line per input line, in order.
//! `--algo` applies to the pair queries; `"ray"` and `"point"` queries
//! ignore it.
//!
//! `mink-query scene [--scalar f32|f64] FILE`: replays a scene file
//! (`SCENE-FORMAT.md`), one line per step: its report and its contacts.
//!
//! Exit status: 0 when the input could be read to the end (bad lines give
//! `ok: false` results), 1 when it could not (or the scene cannot be
//! built), 2 for bad arguments.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use mink_query::{answer_line, Algo, Scalar};

const USAGE: &str = "usage: mink-query [--scalar f32|f64] [--algo auto|gjk|epa|mpr|sat] FILE|-\n       mink-query scene [--scalar f32|f64] FILE|-";

/// The command line, parsed.
struct Args {
    scene: bool,
    scalar: Scalar,
    algo: Algo,
    file: String,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut scalar, mut algo, mut file) = (Scalar::F64, Algo::Auto, None);
    let mut scene = false;
    while let Some(arg) = args.next() {
        if arg == "scene" && file.is_none() && !scene {
            scene = true;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "--scalar" | "--algo" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                if flag == "--scalar" {
                    scalar =
                        Scalar::parse(&value).ok_or_else(|| format!("unknown scalar {value}"))?;
                } else {
                    algo = Algo::parse(&value).ok_or_else(|| format!("unknown algo {value}"))?;
                }
            }
            "-h" | "--help" => return Err(String::new()),
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            _ if file.is_none() => file = Some(arg),
            _ => return Err("more than one FILE".into()),
        }
    }
    let file = file.ok_or("missing FILE (or - for stdin)")?;
    Ok(Args {
        scene,
        scalar,
        algo,
        file,
    })
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("mink-query: {why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.scene {
        return replay(&args);
    }
    let input: Box<dyn Read> = if args.file == "-" {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(&args.file) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("mink-query: cannot read {}: {e}", args.file);
                return ExitCode::from(1);
            }
        }
    };
    let mut reader = BufReader::new(input);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("mink-query: cannot read {}: {e}", args.file);
                return ExitCode::from(1);
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        let result = answer_line(line, args.scalar, args.algo);
        if writeln!(out, "{result}").is_err() {
            // The reader of our output went away: nothing left to do.
            return ExitCode::SUCCESS;
        }
    }
    if out.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    ExitCode::SUCCESS
}

/// `mink-query scene`: reads the whole scene file, replays it, prints one
/// line per step.
fn replay(args: &Args) -> ExitCode {
    let mut text = String::new();
    let read = if args.file == "-" {
        std::io::stdin().read_to_string(&mut text)
    } else {
        std::fs::File::open(&args.file).and_then(|mut f| f.read_to_string(&mut text))
    };
    if let Err(e) = read {
        eprintln!("mink-query: cannot read {}: {e}", args.file);
        return ExitCode::from(1);
    }
    let lines = mink_query::parse_scene(&text).and_then(|spec| match args.scalar {
        Scalar::F32 => mink_query::replay_scene::<f32>(&spec),
        Scalar::F64 => mink_query::replay_scene::<f64>(&spec),
    });
    match lines {
        Ok(lines) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            for line in lines {
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            let _ = out.flush();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mink-query: {}: {e}", args.file);
            ExitCode::from(1)
        }
    }
}
