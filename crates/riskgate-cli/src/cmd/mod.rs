//! One module per subcommand family.

pub mod check;
pub mod common;
pub mod parse;
pub mod scan;
