//! Reading the ICPC format's YAML files leniently: real packages write a
//! number as `5` or `"5"`, flags as a string or a list, a name as a string
//! or a map by language. Each value read is checked and named by its key
//! path; keys nobody read are reported, to be noted rather than refused
//! (other tools add their own keys).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value};

/// Parses a YAML file of the package into a value (`Null` for an empty file).
pub(super) fn read(package: &crate::problem::PackageRoot, path: &Path) -> Result<Value, String> {
    read_with(package, path, &crate::problem::Constants::default())
}

/// [`read`], `constants` replaced in the text first.
pub(super) fn read_with(
    package: &crate::problem::PackageRoot,
    path: &Path,
    constants: &crate::problem::Constants,
) -> Result<Value, String> {
    let text = package.read_text(path)?;
    let text = constants.substitute(&text);
    serde_saphyr::from_str::<Value>(&text).map_err(|e| {
        let text = e.to_string();
        text.lines().next().unwrap_or("").trim().to_string()
    })
}

/// A YAML mapping being read, with the path of keys that leads to it.
#[derive(Debug)]
pub(super) struct Table<'a> {
    map: Option<&'a Map<String, Value>>,
    path: String,
    used: RefCell<BTreeSet<String>>,
}

impl<'a> Table<'a> {
    /// The mapping `value` (an empty one for `null`); `path` names it in messages.
    pub(super) fn new(value: &'a Value, path: &str) -> Result<Table<'a>, String> {
        let map = match value {
            Value::Object(map) => Some(map),
            Value::Null => None,
            other => {
                return Err(format!(
                    "{}: expected a mapping of keys, got {}",
                    if path.is_empty() { "the file" } else { path },
                    kind(other)
                ))
            }
        };
        Ok(Table {
            map,
            path: path.to_string(),
            used: RefCell::new(BTreeSet::new()),
        })
    }

    pub(super) fn key(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The raw value of `key`, marked as read.
    pub(super) fn get(&self, key: &str) -> Option<&'a Value> {
        self.used.borrow_mut().insert(key.to_string());
        self.map.and_then(|m| m.get(key)).filter(|v| !v.is_null())
    }

    /// Marks keys as read without using them (known, but of no use to judging).
    pub(super) fn known(&self, keys: &[&str]) {
        self.used
            .borrow_mut()
            .extend(keys.iter().map(|k| k.to_string()));
    }

    /// A scalar as text.
    pub(super) fn text(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => scalar(v)
                .map(Some)
                .ok_or_else(|| format!("{}: expected text, got {}", self.key(key), kind(v))),
        }
    }

    /// A number (or a string holding one).
    pub(super) fn number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => {
                let n = match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                };
                match n {
                    Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
                    _ => Err(format!(
                        "{}: expected a number >= 0, got {}",
                        self.key(key),
                        shown(v)
                    )),
                }
            }
        }
    }

    /// A YAML list of scalars as words, or which item is not one.
    fn list(&self, key: &str, items: &[Value]) -> Result<Vec<String>, String> {
        items
            .iter()
            .map(|v| {
                scalar(v).ok_or_else(|| {
                    format!(
                        "{}: expected a list of words, got {}",
                        self.key(key),
                        kind(v)
                    )
                })
            })
            .collect()
    }

    /// Arguments: a string split on whitespace, or a list of scalars.
    pub(super) fn args(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => self.list(key, items).map(Some),
            Some(v) => match scalar(v) {
                Some(s) => Ok(Some(s.split_whitespace().map(str::to_string).collect())),
                None => Err(format!(
                    "{}: expected words or a list of them, got {}",
                    self.key(key),
                    kind(v)
                )),
            },
        }
    }

    /// A list of words (a single word counts as a list of one).
    pub(super) fn words(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => self.list(key, items).map(Some),
            Some(v) => scalar(v).map(|s| Some(vec![s])).ok_or_else(|| {
                format!(
                    "{}: expected a word or a list, got {}",
                    self.key(key),
                    kind(v)
                )
            }),
        }
    }

    /// A nested mapping.
    pub(super) fn table(&self, key: &str) -> Result<Option<Table<'a>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => Table::new(v, &self.key(key)).map(Some),
        }
    }

    /// The keys present that nobody read, with their paths.
    pub(super) fn unread(&self) -> Vec<String> {
        let used = self.used.borrow();
        self.map
            .map(|m| {
                m.keys()
                    .filter(|k| !used.contains(*k))
                    .map(|k| self.key(k))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A scalar as text: strings as they are, numbers and booleans written out.
pub(super) fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        other => other.to_string(),
    }
}
