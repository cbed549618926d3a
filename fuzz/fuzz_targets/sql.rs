//! SQL assessment in every dialect: no panic, no hang, bounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use riskgate_analyzers::sql::{Dialect, SqlOptions, assess_sql};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let dialect = match pick % 4 {
        0 => Dialect::Generic,
        1 => Dialect::Postgres,
        2 => Dialect::MySql,
        _ => Dialect::Sqlite,
    };
    let text = String::from_utf8_lossy(rest);
    let _ = assess_sql(&text, dialect, &SqlOptions::default());
});
