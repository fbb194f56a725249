//! A small option parser: `--name value` pairs and `--flag` switches, each
//! command declaring what it accepts, so every mistake gets a one-line error.

use klaverjas::{Card, CardSet, Preset, Rules, Seat, Suit};
use std::collections::HashMap;
use std::str::FromStr;

/// Options of one command after parsing.
pub struct Args {
    command: String,
    values: HashMap<String, String>,
    flags: Vec<String>,
}

impl Args {
    /// Parses `raw` for `command`, which takes the options in `valued` (each
    /// followed by a value) and the switches in `switches`.
    pub fn parse(command: &str, raw: &[String], valued: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut values = HashMap::new();
        let mut flags = Vec::new();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(format!("unexpected argument '{arg}' for 'kj {command}'"));
            };
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (name, None),
            };
            if switches.contains(&name) && inline.is_none() {
                flags.push(name.to_string());
            } else if valued.contains(&name) || (name == "set" && valued.contains(&"rules")) {
                let value = match inline {
                    Some(v) => v,
                    None => it.next().cloned().ok_or_else(|| format!("--{name} needs a value"))?,
                };
                if values.insert(name.to_string(), value).is_some() {
                    return Err(format!("--{name} is given twice"));
                }
            } else {
                return Err(format!("unknown option '--{name}' for 'kj {command}'"));
            }
        }
        Ok(Args { command: command.to_string(), values, flags })
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    pub fn opt(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn req(&self, name: &str) -> Result<&str, String> {
        self.opt(name).ok_or_else(|| format!("'kj {}' needs --{name}", self.command))
    }

    /// A value parsed with `FromStr`, naming the option in the error.
    pub fn parsed<T: FromStr>(&self, name: &str) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        self.opt(name).map(|v| v.parse::<T>().map_err(|e| format!("--{name}: {e}"))).transpose()
    }

    pub fn number(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.opt(name) {
            None => Ok(default),
            Some(v) => v.trim().parse().map_err(|_| format!("--{name}: not a whole number: '{v}'")),
        }
    }

    /// A count that must be at least one (`--deals`), `default` when absent.
    pub fn at_least_one(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.number(name, default)? {
            0 => Err(format!("--{name}: at least 1, not 0")),
            n => Ok(n),
        }
    }

    /// The preset of `--rules` (classic when absent) with the options of
    /// `--set name=value,name=value` on top.
    pub fn rules(&self) -> Result<Rules, String> {
        let preset: Preset = self.parsed("rules")?.unwrap_or(Preset::Classic);
        let mut rules = preset.rules();
        rules.set_all(self.opt("set").unwrap_or_default()).map_err(|e| format!("--set: {e}"))?;
        Ok(rules)
    }

    pub fn suit(&self, name: &str) -> Result<Suit, String> {
        self.parsed(name)?.ok_or_else(|| format!("'kj {}' needs --{name}", self.command))
    }

    pub fn seat(&self, name: &str) -> Result<Seat, String> {
        self.parsed(name)?.ok_or_else(|| format!("'kj {}' needs --{name}", self.command))
    }

    /// A card list; duplicates and unknown cards are errors naming the token.
    pub fn cards(&self, name: &str) -> Result<Vec<Card>, String> {
        CardSet::parse_list(self.req(name)?).map_err(|e| format!("--{name}: {e}"))
    }
}
