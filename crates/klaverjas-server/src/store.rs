//! The tables on disk, in one redb file: each table's header (its setup,
//! seed and chairs) and its steps, one record each. A step is written in a
//! transaction of its own that is on disk when [`Store::append`] returns,
//! so a step the players were told of survives `kill -9`. The tables write
//! through the [`Writer`], which groups what several tables write at once
//! into one commit.

use klaverjas::{Action, Seat};
use klaverjas_net::{Setup, TableCode};
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

const HEADERS: TableDefinition<&str, &[u8]> = TableDefinition::new("headers");
/// Keyed by table code and step number.
const STEPS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("steps");
/// Each table's last use (seconds since 1970), written with each step, so
/// that a restart does not give every table a new day.
const USED: TableDefinition<&str, u64> = TableDefinition::new("used");
/// Club evenings: each one's header, and its accepted actions in order.
const EVENINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("evenings");
const EVENING_STEPS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("evening_steps");
/// Clubs by their name's key: members and finished evenings.
const CLUBS: TableDefinition<&str, &[u8]> = TableDefinition::new("clubs");

/// A table as it was set up, and who sits where.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Header {
    pub setup: Setup,
    /// The first match's seed; a rematch's is a step of its own.
    pub seed: u64,
    pub chairs: Vec<Person>,
    pub started: bool,
    /// Seconds since 1970 of the last seating or change of chairs (a step's
    /// time is kept beside the steps), for the purge of tables nobody uses.
    pub touched: u64,
    /// 256 random bits in hex, the table's own, from which each deal's
    /// seal secret is drawn (`Table::secret`); never sent. Absent in
    /// tables from before the seal hid its deal: given one when opened.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// A table of a club evening: which, and where in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evening: Option<EveningLink>,
    /// Who deals first (an evening's draw says); North where not said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Seat>,
}

/// Where an evening's online table sits in it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EveningLink {
    pub code: TableCode,
    pub round: u8,
    pub table: u16,
}

/// A person in a chair. The token is kept only as its SHA-256.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Person {
    pub seat: Seat,
    pub name: String,
    pub token_hash: String,
    pub host: bool,
}

/// One accepted change of a match, replayed through the engine on a start.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Step {
    Act {
        seat: Seat,
        action: Action,
    },
    CallRoem {
        seat: Seat,
    },
    NextDeal,
    /// A new match at the same table.
    Rematch {
        seed: u64,
    },
}

/// A table read back from disk.
pub struct Stored {
    pub code: TableCode,
    pub header: Header,
    pub steps: Vec<Step>,
    /// Seconds since 1970 of its last step or seating.
    pub used: u64,
}

#[derive(Debug)]
pub enum StoreError {
    Database(redb::Error),
    /// A record that does not read: the table it belongs to is named.
    Record {
        code: String,
        why: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "the tables' database: {e}"),
            StoreError::Record { code, why } => write!(f, "table {code}'s record does not read: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl<E: Into<redb::Error>> From<E> for StoreError {
    fn from(e: E) -> StoreError {
        StoreError::Database(e.into())
    }
}

/// redb's page cache. Its default (1 GiB) keeps every page a busy server
/// touches, a few kilobytes a table more each minute. A page it does not
/// hold is read again from the file, which the system keeps in memory; at
/// 2,000 busy tables the round trip was no slower with 1 MiB.
const CACHE: usize = 1 << 20;

pub struct Store {
    db: Database,
    path: std::path::PathBuf,
}

impl Store {
    /// Opens (or makes) `dir/tables.redb`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Database(redb::Error::Io(e)))?;
        let path = dir.join("tables.redb");
        let db = Database::builder().set_cache_size(CACHE).create(&path)?;
        let txn = db.begin_write()?;
        txn.open_table(HEADERS)?;
        txn.open_table(STEPS)?;
        txn.open_table(USED)?;
        txn.open_table(EVENINGS)?;
        txn.open_table(EVENING_STEPS)?;
        txn.open_table(CLUBS)?;
        txn.commit()?;
        Ok(Store { db, path })
    }

    /// The bytes the database's pages in use take. Not the file's length:
    /// redb gives back only free pages at the file's end, so a file grown
    /// to its bound would stay there after tables were removed, and with
    /// it the refusal.
    pub fn size(&self) -> u64 {
        let used = || -> Result<u64, StoreError> {
            let txn = self.db.begin_write()?;
            let used = Store::used(&txn)?;
            txn.abort()?;
            Ok(used)
        };
        used().unwrap_or_else(|_| std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0))
    }

    fn used(txn: &redb::WriteTransaction) -> Result<u64, StoreError> {
        let stats = txn.stats()?;
        Ok(stats.allocated_pages() * stats.page_size() as u64)
    }

    /// Makes `writes` in one transaction, on disk when this returns.
    pub fn write_all(&self, writes: &[Write]) -> Result<(), StoreError> {
        let txn = self.db.begin_write()?;
        {
            let mut headers = txn.open_table(HEADERS)?;
            let mut steps = txn.open_table(STEPS)?;
            let mut used = txn.open_table(USED)?;
            let mut evenings = txn.open_table(EVENINGS)?;
            let mut evening_steps = txn.open_table(EVENING_STEPS)?;
            let mut clubs = txn.open_table(CLUBS)?;
            for write in writes {
                match write {
                    Write::Header(code, header) => {
                        headers.insert(code.as_str(), json(header).as_slice())?;
                    }
                    Write::Step(code, number, step) => {
                        steps.insert((code.as_str(), *number), json(step).as_slice())?;
                        used.insert(code.as_str(), crate::now())?;
                    }
                    Write::Remove(code) => {
                        headers.remove(code.as_str())?;
                        used.remove(code.as_str())?;
                        steps.retain_in((code.as_str(), 0)..=(code.as_str(), u64::MAX), |_, _| false)?;
                    }
                    Write::Evening(code, header) => {
                        evenings.insert(code.as_str(), json(header).as_slice())?;
                    }
                    Write::EveningStep(code, number, step) => {
                        evening_steps.insert((code.as_str(), *number), json(step).as_slice())?;
                    }
                    Write::RemoveEvening(code) => {
                        evenings.remove(code.as_str())?;
                        evening_steps.retain_in((code.as_str(), 0)..=(code.as_str(), u64::MAX), |_, _| false)?;
                    }
                    Write::Club(key, club) => {
                        clubs.insert(key.as_str(), json(club).as_slice())?;
                    }
                }
            }
        }
        txn.commit()?;
        Ok(())
    }

    /// Every table with its steps in order.
    pub fn load(&self) -> Result<Vec<Stored>, StoreError> {
        let txn = self.db.begin_read()?;
        let headers = txn.open_table(HEADERS)?;
        let steps = txn.open_table(STEPS)?;
        let used = txn.open_table(USED)?;
        let mut tables = Vec::new();
        for row in headers.iter()? {
            let (code, header) = row?;
            let code_str = code.value().to_owned();
            let bad = |why: String| StoreError::Record { code: code_str.clone(), why };
            let code: TableCode = code_str.parse().map_err(|e: klaverjas_net::CodeError| bad(e.to_string()))?;
            let header: Header = serde_json::from_slice(header.value()).map_err(|e| bad(e.to_string()))?;
            let list = in_order(steps.range((code.as_str(), 0)..=(code.as_str(), u64::MAX))?, &bad)?;
            let stepped = used.get(code.as_str())?.map_or(0, |t| t.value());
            let used = stepped.max(header.touched);
            tables.push(Stored { code, header, steps: list, used });
        }
        Ok(tables)
    }
}

/// Reads each record of a keyed list (a table's steps, an evening's) in
/// order, or names the one missing or unreadable.
fn in_order<T: serde::de::DeserializeOwned>(
    rows: redb::Range<'_, (&'static str, u64), &'static [u8]>,
    bad: &dyn Fn(String) -> StoreError,
) -> Result<Vec<T>, StoreError> {
    let mut list = Vec::new();
    for row in rows {
        let (key, value) = row?;
        let number = key.value().1;
        if number != list.len() as u64 {
            return Err(bad(format!("step {} is missing", list.len())));
        }
        list.push(serde_json::from_slice(value.value()).map_err(|e| bad(format!("step {number}: {e}")))?);
    }
    Ok(list)
}

impl Store {
    /// Every evening with its steps in order, and every club.
    pub fn load_evenings(&self) -> Result<Evenings, StoreError> {
        let txn = self.db.begin_read()?;
        let headers = txn.open_table(EVENINGS)?;
        let steps = txn.open_table(EVENING_STEPS)?;
        let mut evenings = Vec::new();
        for row in headers.iter()? {
            let (code, header) = row?;
            let code_str = code.value().to_owned();
            let bad = |why: String| StoreError::Record { code: code_str.clone(), why };
            let code: TableCode = code_str.parse().map_err(|e: klaverjas_net::CodeError| bad(e.to_string()))?;
            let header: EveningHeader = serde_json::from_slice(header.value()).map_err(|e| bad(e.to_string()))?;
            let steps = in_order(steps.range((code.as_str(), 0)..=(code.as_str(), u64::MAX))?, &bad)?;
            evenings.push(StoredEvening { code, header, steps });
        }
        let mut clubs = Vec::new();
        for row in txn.open_table(CLUBS)?.iter()? {
            let (key, club) = row?;
            let key = key.value().to_owned();
            let club = serde_json::from_slice(club.value())
                .map_err(|e| StoreError::Record { code: format!("club {key}"), why: e.to_string() })?;
            clubs.push((key, club));
        }
        Ok((evenings, clubs))
    }
}

/// The evenings on disk, and the clubs under their names' keys.
pub type Evenings = (Vec<StoredEvening>, Vec<(String, Club)>);

/// An evening as it was set up. Tokens are kept only as their SHA-256.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EveningHeader {
    pub setup: klaverjas_club::EveningSetup,
    pub seed: u64,
    pub organiser: String,
    /// Seconds since 1970 it was made.
    pub made: u64,
}

/// One accepted action of an evening; a check-in with the hash of the
/// token its player was given.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct EveningStep {
    pub who: klaverjas_club::Who,
    pub action: klaverjas_club::EveningAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
}

pub struct StoredEvening {
    pub code: TableCode,
    pub header: EveningHeader,
    pub steps: Vec<EveningStep>,
}

/// A club: who its organisers are (their club token's hash), its members
/// from every evening, and each finished evening's points.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Club {
    pub name: String,
    pub token_hash: String,
    pub members: Vec<String>,
    /// Each finished evening: its name and everyone's points.
    pub evenings: Vec<(String, Vec<klaverjas_club::Attended>)>,
}

/// One change to the tables on disk.
#[derive(Clone, Debug)]
pub enum Write {
    Header(TableCode, Header),
    /// Step `number` (from 0) of the table.
    Step(TableCode, u64, Step),
    /// The table and its steps are forgotten.
    Remove(TableCode),
    Evening(TableCode, EveningHeader),
    EveningStep(TableCode, u64, EveningStep),
    RemoveEvening(TableCode),
    /// A club under its name's key.
    Club(String, Club),
}

/// The one thread that writes: every table's changes that wait while a
/// commit is under way go into the next commit together (a group commit),
/// so a disk's few syncs a second serve many tables. Each change is
/// answered once its commit is on disk.
#[derive(Clone)]
pub struct Writer {
    tx: std::sync::mpsc::Sender<(Write, tokio::sync::oneshot::Sender<Result<(), String>>)>,
    /// The database's size after the last commit, in bytes.
    size: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// Changes in one commit at most.
const GROUP: usize = 1024;

impl Writer {
    pub fn start(store: std::sync::Arc<Store>) -> Writer {
        let (tx, rx) = std::sync::mpsc::channel::<(Write, tokio::sync::oneshot::Sender<Result<(), String>>)>();
        let size = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(store.size()));
        let measured = size.clone();
        std::thread::spawn(move || {
            let mut last_measured = std::time::Instant::now();
            while let Ok(first) = rx.recv() {
                let mut group = vec![first];
                while group.len() < GROUP {
                    match rx.try_recv() {
                        Ok(next) => group.push(next),
                        Err(_) => break,
                    }
                }
                let writes: Vec<Write> = group.iter().map(|(w, _)| w.clone()).collect();
                let result = store.write_all(&writes).map_err(|e| e.to_string());
                // Counting the pages in use walks redb's allocator: done
                // after every commit it made a table's round trip 6 ms
                // instead of 0.9 at 2,000 tables; once a second the bound
                // is as good.
                if last_measured.elapsed() >= std::time::Duration::from_secs(1) {
                    measured.store(store.size(), std::sync::atomic::Ordering::Relaxed);
                    last_measured = std::time::Instant::now();
                }
                for (_, done) in group {
                    let _ = done.send(result.clone());
                }
            }
        });
        Writer { tx, size }
    }

    /// The database's size in bytes, as of the last commit.
    pub fn size(&self) -> u64 {
        self.size.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Makes the change; returns once it is on disk.
    pub async fn write(&self, write: Write) -> Result<(), String> {
        let (done, written) = tokio::sync::oneshot::channel();
        self.tx.send((write, done)).map_err(|_| "the tables' writer has stopped".to_owned())?;
        written.await.map_err(|_| "the tables' writer has stopped".to_owned())?
    }
}

fn json<T: Serialize>(value: &T) -> Vec<u8> {
    // Plain data with string keys: writing it cannot fail.
    serde_json::to_vec(value).unwrap_or_default()
}
